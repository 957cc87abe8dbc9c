/**
 * Who and where the room can address: every agent session and human it knows of (from presence,
 * across machines) and every worktree. `post` resolves its recipients against it, `targets` prints
 * it, the rules read it. Built by `room/services/directory.ts` from the store and git; pure data
 * here so that recipient resolution and the rules stay pure.
 */

/** A session's presence: `blocked` is never stored, it is derived (an open human-loop thread it opened). */
export const presenceStates = ['online', 'idle', 'blocked', 'offline'] as const
export type PresenceState = (typeof presenceStates)[number]

export interface DirectoryAgent {
  /** Stable, without `@`: `claude-lane-one`. */
  readonly handle: string
  readonly vendor: string
  readonly sessionId: string
  /** The human the session acts for. */
  readonly human: string
  readonly state: PresenceState
  /** Absolute path of the worktree it works in, when known. */
  readonly worktree: string | null
  readonly branch: string | null
  /** The machine's stable id (one per data dir). */
  readonly machine: string
  /** ms epoch of its last presence change. */
  readonly updatedAt: number
}

export interface DirectoryWorktree {
  /** Without `#`: the directory name when unique in the project, else disambiguated and stable. */
  readonly target: string
  readonly path: string
  readonly machine: string
  /** null for a detached HEAD. */
  readonly branch: string | null
}

/**
 * A person: one per human, whatever machines and channels they use (the CLI, `chat`, the
 * dashboard, their agents' hooks). Their `chat` sessions are their own presence, not agents.
 */
export interface DirectoryPerson {
  /** Without `@`: what `@bob` addresses; their chat's handle, else from their name. */
  readonly handle: string
  /** The human's name as sangam knows it (`SANGAM_USER`, git's `user.email`, the OS user). */
  readonly name: string
  /** Online while one of their chats or agents is online (or blocked), idle while one is idle. */
  readonly state: PresenceState
  /** The machines they were seen on (a chat or an agent session there), by id. */
  readonly machines: readonly string[]
}

export interface RoomDirectory {
  /** Agent sessions (Claude Code, Codex) of every machine; never a person's chat. */
  readonly agents: readonly DirectoryAgent[]
  readonly worktrees: readonly DirectoryWorktree[]
  /** The humans' names (`@human` addresses all of them); the same people as `people`. */
  readonly humans: readonly string[]
  readonly people: readonly DirectoryPerson[]
}
