import type { DirectoryAgent } from '../../room/core/directory.ts'
import type { RoomThread } from '../../room/protocol/thread.ts'
import type { loadDirectory } from '../../room/services/directory.ts'
import type { StoredMessage } from '../../room/store/message-table.ts'
import { type DeliveryVendor, isDeliveryVendor } from '../core/delivery-vocabulary.ts'

export interface Target {
  readonly vendor: DeliveryVendor
  readonly sessionId: string
  /** How the message names it; a handle wins over a worktree, both over the thread. */
  readonly by: 'handle' | 'worktree' | 'thread'
}

const rank: Record<Target['by'], number> = { handle: 3, worktree: 2, thread: 1 }

/**
 * The sessions of this machine a message tags: the agent of each `@handle` among its recipients,
 * every agent session not offline in a `#worktree` among them, and, for a post into a thread, the
 * sessions its participants name the same way (D272). A message to the whole room, to `@all`,
 * `@everyone` or `@human` tags no session (it reaches them at their next prompt).
 *
 * A thread never routes a post back to whoever made it: not to the session that posted it, and,
 * for an agent's post that names no session (Codex's MCP server has none to give), to no session
 * of the poster's human in the worktree it was posted from, since any of them may be the poster.
 */
export function tagTargets(
  message: StoredMessage,
  directory: ReturnType<typeof loadDirectory>,
  machine: string,
  thread: RoomThread | null = null,
): Target[] {
  const found = new Map<string, Target>()
  const add = (vendor: string, sessionId: string, by: Target['by']): void => {
    const key = `${vendor}:${sessionId}`
    const known = found.get(key)
    if (!isDeliveryVendor(vendor) || (known !== undefined && rank[known.by] >= rank[by])) return
    found.set(key, { vendor, sessionId, by })
  }
  const route = (token: string, by: Target['by'], skip: (agent: DirectoryAgent) => boolean): void => {
    if (token.startsWith('@')) {
      const handle = token.slice(1)
      if (handle === 'all' || handle === 'everyone' || handle === 'human') return
      for (const agent of directory.agents)
        if (agent.handle === handle && agent.machine === machine && !skip(agent))
          add(agent.vendor, agent.sessionId, by)
    } else if (token.startsWith('#')) {
      const target = token.slice(1)
      const places = directory.worktrees.filter(
        (worktree) => worktree.target === target && worktree.machine === machine,
      )
      for (const place of places)
        for (const agent of directory.agents)
          if (
            agent.machine === machine &&
            agent.worktree === place.path &&
            agent.state !== 'offline' &&
            !skip(agent)
          )
            add(agent.vendor, agent.sessionId, by)
    }
  }
  for (const token of message.recipients)
    route(token, token.startsWith('@') ? 'handle' : 'worktree', () => false)
  if (thread !== null && thread.id === message.threadId) {
    const poster = (agent: DirectoryAgent): boolean =>
      message.session !== null
        ? agent.vendor === message.session.vendor && agent.sessionId === message.session.sessionId
        : message.author !== 'human' &&
          message.worktree !== null &&
          agent.worktree === message.worktree &&
          agent.human === message.human
    for (const token of thread.participants) route(token, 'thread', poster)
  }
  return [...found.values()]
}
