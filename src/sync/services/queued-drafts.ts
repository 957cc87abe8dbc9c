import type { QueuedRecord } from '../../records/store/record-outbox.ts'
import { redactForWire } from '../../secrets/core/wire-fields.ts'
import { type RecordDraft, recordDraftSchema } from '../protocol/record.ts'

/** A queued record that never leaves this machine, and why (for the log). */
export interface KeptRecord {
  readonly entry: QueuedRecord
  readonly why: 'is not a valid draft' | 'holds a secret'
  readonly details: Record<string, unknown>
}

/**
 * The queued drafts of one push, oldest first, up to `maxBytes` (at least one). A draft this
 * version cannot vouch for never leaves, and neither does one with a secret in a typed field: the
 * write redacted its context and refused typed secrets, but what a hook queued (a session's branch
 * and worktree) is redacted only here. Both are `kept`: their local records stay, and the caller
 * takes them out of the queue.
 */
export function takeQueuedDrafts(
  queued: readonly QueuedRecord[],
  maxBytes: number,
): { taken: QueuedRecord[]; records: RecordDraft[]; kept: KeptRecord[] } {
  const taken: QueuedRecord[] = []
  const records: RecordDraft[] = []
  const kept: KeptRecord[] = []
  let bytes = 0
  for (const entry of queued) {
    const parsed = recordDraftSchema.safeParse(entry.draft)
    if (!parsed.success) {
      kept.push({ entry, why: 'is not a valid draft', details: { message: parsed.error.message } })
      continue
    }
    const checked = redactForWire(parsed.data.type, parsed.data)
    if (checked.refused !== null) {
      kept.push({
        entry,
        why: 'holds a secret',
        details: { field: checked.refused.field.label, kinds: checked.refused.kinds },
      })
      continue
    }
    const size = Buffer.byteLength(JSON.stringify(checked.value))
    if (taken.length > 0 && bytes + size > maxBytes) break
    taken.push(entry)
    records.push(checked.value)
    bytes += size
  }
  return { taken, records, kept }
}
