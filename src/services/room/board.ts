import { type Board, deriveBoard } from '../../core/room/board.ts'
import type { RoomDirectory } from '../../core/room/directory.ts'
import type { Db } from '../../store/db.ts'
import { listThreadRows } from '../../store/room/thread-table.ts'

/** The board of the room now: derived from the threads and who is active; it writes nothing. */
export function roomBoard(db: Db, directory: RoomDirectory): Board {
  return deriveBoard(listThreadRows(db, { all: true }), directory)
}
