import type { z } from 'zod'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { OptionShare } from '../../options/services/options-by-name.ts'
import { enqueueRecord } from '../../records/store/record-outbox.ts'
import { guardWrite } from '../../secrets/core/wire-fields.ts'
import type { Db } from '../../store/database.ts'
import { isTeamOption } from '../core/rule-catalog.ts'
import { type roomOptionRecordDraftSchema, roomOptionRecordId } from '../protocol/records/room-option.ts'
import { readOptionChange, writeOptionChange } from '../store/option-change-table.ts'

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
  } satisfies z.infer<typeof roomOptionRecordDraftSchema>)
  enqueueRecord(db, draft, by.now)
}

/**
 * What an option write does with its new value: a team option (a rule's rung, a room setting) is
 * queued for the team in the write's transaction; the others stay on this machine.
 */
export function shareTeamOptions(db: Db, by: OptionChangeBy): OptionShare {
  return (name, value) => {
    if (
      isTeamOption(name) &&
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    )
      shareOptionChange(db, name, value, by)
  }
}
