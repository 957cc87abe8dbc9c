import type { Clock } from '../../shared/clock.ts'
import type { Random } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import {
  conflictKey,
  conflictPostText,
  conflictTitle,
  type KnownConflict,
  planConflictThreads,
} from '../core/conflict-thread-plan.ts'
import { remoteWorktreeName } from '../core/cross-machine-overlap.ts'
import type { RoomDirectory } from '../core/directory.ts'
import type { ConflictGroup } from '../core/overlap-picture.ts'
import {
  markReadyConflictClosed,
  readReadyConflicts,
  recordReadyConflict,
} from '../store/ready-conflict-table.ts'
import { threadById } from '../store/thread-table.ts'
import { post } from './post.ts'
import type { RoomScope } from './room-scope.ts'
import { closeThread, openThread } from './threads.ts'

/** The name conflict threads and their posts go out under (a thread's `source`). */
export const readySender = 'ready'

export interface ConflictThreadChanges {
  readonly opened: readonly string[]
  readonly closed: readonly string[]
  /** Sets whose thread could not be opened (the room refused it): tried again next round. */
  readonly failed: readonly { readonly worktrees: readonly string[]; readonly message: string }[]
}

/**
 * Brings the room's conflict threads in line with this round's conflict groups, through the
 * room's own thread and post use cases (so they sync like any other): a new colliding set gets a
 * thread `Merge conflict: <path>` (agents, temporary, source `ready`, the worktrees as
 * participants) and one post tagging them; a set whose collision is gone has its thread closed.
 * Each open (thread, post, the set's row) is one transaction: a daemon killed in between leaves
 * all or nothing, so a restart never opens a second thread for the same set.
 */
export function syncConflictThreads(
  db: Db,
  groups: readonly ConflictGroup[],
  room: {
    readonly clock: Clock
    readonly random: Random
    readonly directory: RoomDirectory
    readonly human: string
  },
): ConflictThreadChanges {
  const known: KnownConflict[] = readReadyConflicts(db).map((row) => {
    const thread = threadById(db, row.threadId)
    return { ...row, threadOpen: thread === null ? null : thread.status === 'open' }
  })
  const plan = planConflictThreads(groups, known)
  const scope: RoomScope = {
    db,
    clock: room.clock,
    random: room.random,
    directory: room.directory,
    poster: {
      sender: readySender,
      actor: { human: room.human, vendor: null, sessionId: null },
      author: 'sangam',
      git: { worktree: null, branch: null, head: null },
      joins: false,
    },
  }
  // A group names this machine's worktrees by path and other machines' as `<machine>:<path>`.
  const targetOf = new Map(
    room.directory.worktrees.flatMap((worktree) => [
      [worktree.path, worktree.target] as const,
      [remoteWorktreeName(worktree.machine, worktree.path), worktree.target] as const,
    ]),
  )
  const opened: string[] = []
  const failed: { worktrees: readonly string[]; message: string }[] = []
  for (const group of plan.open) {
    const targets = group.worktrees.flatMap((path) => {
      const target = targetOf.get(path)
      return target === undefined ? [] : [target]
    })
    let id: string
    try {
      id = db.transaction((): string => {
        const thread = openThread(scope, {
          title: conflictTitle(group.paths),
          reason: 'these worktrees do not merge cleanly with each other',
          audience: 'agents',
          lifetime: 'temporary',
          participants: targets.map((target) => `#${target}`),
          paths: group.paths,
        })
        post(scope, {
          text: conflictPostText(targets, group.paths),
          to: [],
          kind: 'message',
          topic: null,
          threadId: thread.id,
        })
        recordReadyConflict(
          db,
          { key: conflictKey(group.worktrees), threadId: thread.id, commits: group.commits.join('\n') },
          room.clock.now(),
        )
        return thread.id
      })()
    } catch (error) {
      // One set the room refuses (a path the secret scrubber flags) must not hold up the others.
      failed.push({
        worktrees: group.worktrees,
        message: error instanceof Error ? error.message : String(error),
      })
      continue
    }
    opened.push(id)
  }
  const closed: string[] = []
  for (const entry of plan.close) {
    db.transaction(() => {
      closeThread(scope, entry.threadId)
      markReadyConflictClosed(db, entry.key, room.clock.now())
    })()
    closed.push(entry.threadId)
  }
  return { opened, closed, failed }
}
