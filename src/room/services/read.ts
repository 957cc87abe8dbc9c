import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import type { ReadInput } from '../protocol/read-input.ts'
import { latestMessages, messageById, messagesAfter, type StoredMessage } from '../store/message-table.ts'

/**
 * The room's messages in its one order (the server's gseq, then this machine's posts not yet
 * ordered): the latest `limit`, or the first `limit` after a message.
 */
export function readMessages(db: Db, input: ReadInput): StoredMessage[] {
  if (input.after === null) return latestMessages(db, input.limit)
  const after = messageById(db, input.after)
  if (after === null) {
    throw new SangamError(
      ErrorCode.NotFound,
      `no message ${input.after} in this room: sangam read lists them`,
    )
  }
  return messagesAfter(db, after, input.limit)
}
