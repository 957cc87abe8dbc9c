import type { SyncLimits } from '../../src/sync/protocol/limits.ts'
import type { PushResult } from '../../src/sync/protocol/push.ts'
import type { RecordDraft } from '../../src/sync/protocol/record.ts'
import type { Presence } from './presence.ts'
import type { PushAdmission, Pusher } from './push-admission.ts'
import type { RecordLog } from './record-log.ts'
import { Refusal } from './refusal.ts'
import { refuseSecrets } from './secret-check.ts'

/**
 * Appends pushed records in one storage transaction: either the whole push gets its gseqs or none
 * of it does, so a push interrupted by a crash is simply pushed again (ids make it idempotent). A
 * record with a secret in any free-text field refuses the push before anything is written.
 */
export function appendDrafts(
  storage: DurableObjectStorage,
  records: RecordLog,
  presence: Presence,
  drafts: readonly RecordDraft[],
  now: number,
): PushResult[] {
  for (const [index, draft] of drafts.entries()) refuseSecrets(draft.type, draft, `records.${index}.`)
  return storage.transactionSync(() => {
    const results = records.append(drafts, now)
    presence.touch(
      drafts.map((draft) => draft.actor),
      now,
    )
    return results
  })
}

/**
 * Refuses a push over the rate of its pusher (an address or a connection) or of its project
 * (push-admission.ts), or over the record count limit. The rate is checked first, so a client
 * stuck resending an oversize batch is also slowed down.
 */
export function admitPush(
  admission: PushAdmission,
  limits: SyncLimits,
  pusher: Pusher,
  count: number,
  now: number,
): void {
  admission.admit(pusher, now)
  if (count > limits.maxRecordsPerPush)
    throw new Refusal(
      'TOO_MANY_RECORDS',
      `${count} records in one push; this server takes at most ${limits.maxRecordsPerPush}: split the batch`,
      { limit: limits.maxRecordsPerPush },
    )
}
