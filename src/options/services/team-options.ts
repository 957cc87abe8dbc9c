import type { Actor } from '../../identity/protocol/actor.ts'
import { enqueueRecord } from '../../records/store/record-outbox.ts'
import { readOptionChange, writeOptionChange } from '../../room/store/option-change-table.ts'
import { guardWrite } from '../../secrets/core/wire-fields.ts'
import type { Db } from '../../store/database.ts'
import { type RecordDraft, roomOptionRecordId } from '../../sync/protocol/record.ts'

/** Who changes an option, and when: the team's record of the change carries both. */
export interface OptionChangeBy {
  readonly actor: Actor
  readonly now: number
}

/**
 * Queues a team option's new value for the team as a `room.option` record, in the caller's
 * transaction (the value is written with it, or neither is). Its time is now, but always after
 * the change it replaces, so this machine's value is the newest even when a teammate's clock ran
 * ahead; every replica then keeps it.
 */
export function shareOptionChange(
  db: Db,
  name: string,
  value: string | number | boolean,
  by: OptionChangeBy,
): void {
  const previous = readOptionChange(db, name)
  const setAt = previous === null ? by.now : Math.max(by.now, previous.setAt + 1)
  const payload = { name, value, setAt }
  const id = roomOptionRecordId(payload)
  writeOptionChange(db, { name, setAt, recordId: id })
  const draft = guardWrite('room.option', {
    id,
    type: 'room.option',
    actor: by.actor,
    at: new Date(setAt).toISOString(),
    payload,
  } satisfies RecordDraft)
  enqueueRecord(db, draft, by.now)
}
