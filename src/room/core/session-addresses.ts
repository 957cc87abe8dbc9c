import type { RoomDirectory } from './directory.ts'

/** The session a context is made for, as the hooks know it. */
export interface ContextSession {
  readonly vendor: string
  readonly sessionId: string
  /** The worktree it runs in (absolute), on `machine`. */
  readonly worktree: string
  readonly machine: string
}

/**
 * Every recipient token that addresses this session: its handle as the directory shows it, its
 * worktree's target, and `@all` / `@everyone` (reserved handles, so they can only ever mean
 * everyone). A message with no recipients is for the whole room and needs no token.
 */
export function sessionAddresses(directory: RoomDirectory, session: ContextSession): string[] {
  const tokens = ['@all', '@everyone']
  const agent = directory.agents.find(
    (candidate) => candidate.vendor === session.vendor && candidate.sessionId === session.sessionId,
  )
  if (agent !== undefined) tokens.unshift(`@${agent.handle}`)
  for (const worktree of directory.worktrees) {
    if (worktree.path === session.worktree && worktree.machine === session.machine) {
      tokens.push(`#${worktree.target}`)
    }
  }
  return tokens
}
