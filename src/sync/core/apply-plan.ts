/** Records carry their place in the project's order. */
export interface Ordered {
  readonly gseq: number
}

export interface ApplyPlan<T extends Ordered> {
  /** The records that continue the replica, gseq cursor + 1, + 2, … with no hole. */
  readonly apply: readonly T[]
  /** Records at or below the cursor: already applied (a replay, or a pull that overlapped). */
  readonly stale: number
  /**
   * Set when a record was missing before the rest: the cursor the replica stops at. The records
   * after the hole are not applied; the caller fetches from this cursor again.
   */
  readonly gapAfter: number | null
}

/**
 * Records are applied in gseq order and only in gseq order: a replica's position is the one
 * number `cursor`, which is only true if nothing after it was applied before it.
 */
export function planApply<T extends Ordered>(cursor: number, records: readonly T[]): ApplyPlan<T> {
  const apply: T[] = []
  let stale = 0
  let next = cursor + 1
  for (const record of records) {
    if (record.gseq < next) {
      stale++
      continue
    }
    if (record.gseq > next) return { apply, stale, gapAfter: next - 1 }
    apply.push(record)
    next++
  }
  return { apply, stale, gapAfter: null }
}
