import { readOptionGroup } from '../../options/services/option-store.ts'
import type { Db } from '../../store/db.ts'
import { type Board, deriveBoard } from '../core/board.ts'
import type { RoomDirectory } from '../core/directory.ts'
import { roomOptions } from '../core/settings.ts'
import { humanToken } from '../protocol/thread.ts'
import { threadPostsSince } from '../store/message-table.ts'
import { listThreadRows } from '../store/thread-table.ts'
import { readySender } from './conflict-threads.ts'

const hourMs = 60 * 60 * 1000

/**
 * The board of the room now, for `board`, MCP `room_board`, the dashboard's Board and `chat`'s
 * `/board` alike: derived from the threads, who is working (`deriveBoard`) and the posts of the
 * last `room.doing-hours`; it writes nothing.
 */
export function roomBoard(db: Db, directory: RoomDirectory, now: number): Board {
  const doingWindowMs = readOptionGroup(db, roomOptions).doingHours * hourMs
  // sangam's own posts (the conflict threads' `ready`) are nobody working on them. A poster is
  // named as posting made it a participant (`posterToken`).
  const posts = threadPostsSince(db, now - doingWindowMs, readySender).map((post) => ({
    threadId: post.threadId,
    poster: post.inSession ? `@${post.sender}` : humanToken,
    at: post.at,
  }))
  return deriveBoard({ threads: listThreadRows(db, { all: true }), directory, posts, doingWindowMs }, now)
}
