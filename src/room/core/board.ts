import type { Board, BoardCard, BoardColumn } from '../protocol/board-view.ts'
import { humanToken, type RoomThread } from '../protocol/thread.ts'
import type { DirectoryAgent, RoomDirectory } from './directory.ts'
import { isActiveAgent } from './edit-rules.ts'

/**
 * The board: every thread in one of four columns, derived when it is read and never stored, so it
 * cannot disagree with the threads. `done` closed; `blocked` open and waiting on a human
 * (human-loop); `doing` open with a participant working on it; `backlog` open with nobody working
 * on it. Working (D352) is what someone does, not who they are: an agent participant active by
 * D135's windows (online under 4 h, idle under 30 min), a `#worktree` participant such an agent
 * works in, or anyone's post into the thread within `room.doing-hours`. Opening a thread is not
 * working on it, and a human is not working on every thread they are in.
 */
export const boardColumns = ['backlog', 'doing', 'blocked', 'done'] as const

export type { Board, BoardCard, BoardColumn } from '../protocol/board-view.ts'

/** A post into a thread: who (a participant token: `@handle` for an agent, `@human` for a person) and when. */
export interface ThreadPost {
  readonly threadId: string
  readonly poster: string
  readonly at: number
}

export interface BoardFacts {
  readonly threads: readonly RoomThread[]
  readonly directory: RoomDirectory
  /** Posts into threads, at least those of the last `doingWindowMs` (sangam's own left out). */
  readonly posts: readonly ThreadPost[]
  /** How recent a post keeps its thread in `doing` (`room.doing-hours`). */
  readonly doingWindowMs: number
}

export function deriveBoard(facts: BoardFacts, now: number): Board {
  const columns: { [Column in BoardColumn]: BoardCard[] } = { backlog: [], doing: [], blocked: [], done: [] }
  const recentPosters = new Map<string, string[]>()
  for (const post of [...facts.posts].sort((a, b) => b.at - a.at)) {
    if (now - post.at >= facts.doingWindowMs) continue
    const posters = recentPosters.get(post.threadId) ?? []
    if (!posters.includes(post.poster)) posters.push(post.poster)
    recentPosters.set(post.threadId, posters)
  }
  const working = (agent: DirectoryAgent) => isActiveAgent(agentSeen(agent), now)
  const ordered = [...facts.threads].sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id))
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
      const owners = thread.participants.filter((token) => isWorking(token, facts.directory, working))
      for (const poster of recentPosters.get(thread.id) ?? [])
        if (!owners.includes(poster)) owners.push(poster)
      if (owners.length > 0) columns.doing.push(card(thread.reason ?? 'in progress', owners))
      else columns.backlog.push(card(thread.reason ?? 'nobody working on it', []))
    }
  }
  return columns
}

function reasonSuffix(thread: RoomThread): string {
  return thread.reason === null ? '' : `: ${thread.reason}`
}

/** An agent participant working now, or a worktree such an agent works in; a person works by posting. */
function isWorking(
  token: string,
  directory: RoomDirectory,
  working: (agent: DirectoryAgent) => boolean,
): boolean {
  const name = token.slice(1).toLowerCase()
  if (token.startsWith('@')) {
    return directory.agents.some((agent) => agent.handle.toLowerCase() === name && working(agent))
  }
  const paths = new Set(
    directory.worktrees
      .filter((worktree) => worktree.target.toLowerCase() === name)
      .map((worktree) => worktree.path),
  )
  return directory.agents.some(
    (agent) => agent.worktree !== null && paths.has(agent.worktree) && working(agent),
  )
}

/** A session waiting on a human (`blocked`) is not working: it counts as its turn ended. */
function agentSeen(agent: DirectoryAgent) {
  return {
    vendor: agent.vendor,
    sessionId: agent.sessionId,
    handle: agent.handle,
    worktree: agent.worktree,
    state: agent.state === 'blocked' ? ('offline' as const) : agent.state,
    updatedAt: agent.updatedAt,
  }
}
