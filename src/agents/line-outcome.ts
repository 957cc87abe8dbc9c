import type { LineClass, ReadOutcome, SkipReason } from './transcript-reader.ts'

/** How one line was accounted for, after all the JSON values on it were read. */
export interface LineOutcome {
  readonly class: LineClass
  readonly reason?: SkipReason | undefined
}

/**
 * A line holding several JSON values is still one line: it counts as captured if any value was,
 * else unknown if any value was, else skipped with the first value's reason.
 */
export function combineOutcomes(outcomes: readonly ReadOutcome[]): LineOutcome {
  if (outcomes.length === 0) return { class: 'unparseable' }
  if (outcomes.some((outcome) => outcome.class === 'captured')) return { class: 'captured' }
  if (outcomes.some((outcome) => outcome.class === 'unknown')) return { class: 'unknown' }
  return { class: 'skipped', reason: outcomes[0]?.reason }
}
