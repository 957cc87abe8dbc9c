import { humanToken, type RoomThread } from '../../protocol/room/thread.ts'
import type { RoomDirectory } from './directory.ts'

/**
 * The board: every thread in one of four columns, derived when it is read and never stored, so it
 * cannot disagree with the threads. `done` closed; `blocked` open and waiting on a human
 * (human-loop); `doing` open with an active participant (an agent online or idle, or a human);
 * `backlog` open with nobody active on it.
 */
export const boardColumns = ['backlog', 'doing', 'blocked', 'done'] as const
export type BoardColumn = (typeof boardColumns)[number]

export interface BoardCard {
  readonly threadId: string
  readonly title: string
  /** One line: why it is in its column. */
  readonly detail: string
  /** The participants active on it (tokens); for `blocked`, who it waits on. */
  readonly owners: readonly string[]
}

export type Board = { readonly [Column in BoardColumn]: readonly BoardCard[] }

export function deriveBoard(threads: readonly RoomThread[], directory: RoomDirectory): Board {
  const columns: { [Column in BoardColumn]: BoardCard[] } = { backlog: [], doing: [], blocked: [], done: [] }
  const ordered = [...threads].sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id))
  for (const thread of ordered) {
    const card = (detail: string, owners: readonly string[]): BoardCard => ({
      threadId: thread.id,
      title: thread.title,
      detail,
      owners,
    })
    if (thread.status === 'closed') {
      columns.done.push(card('closed', thread.participants))
    } else if (thread.audience === 'human-loop') {
      columns.blocked.push(card(`waiting on a human${reasonSuffix(thread)}`, [humanToken]))
    } else {
      const active = thread.participants.filter((token) => isActive(token, directory))
      if (active.length > 0) columns.doing.push(card(thread.reason ?? 'in progress', active))
      else columns.backlog.push(card(thread.reason ?? 'nobody active on it', []))
    }
  }
  return columns
}

function reasonSuffix(thread: RoomThread): string {
  return thread.reason === null ? '' : `: ${thread.reason}`
}

/** A human is always reachable; an agent is active while online or idle; a worktree through its agents. */
function isActive(token: string, directory: RoomDirectory): boolean {
  if (token === humanToken) return true
  const name = token.slice(1).toLowerCase()
  if (token.startsWith('@')) {
    return (
      directory.humans.some((human) => human.toLowerCase() === name) ||
      directory.people.some((person) => person.handle === name) ||
      directory.agents.some(
        (agent) =>
          agent.handle.toLowerCase() === name && (agent.state === 'online' || agent.state === 'idle'),
      )
    )
  }
  const paths = new Set(
    directory.worktrees
      .filter((worktree) => worktree.target.toLowerCase() === name)
      .map((worktree) => worktree.path),
  )
  return directory.agents.some(
    (agent) =>
      agent.worktree !== null &&
      paths.has(agent.worktree) &&
      (agent.state === 'online' || agent.state === 'idle'),
  )
}
