import type { Rung } from '../../options/protocol/rung.ts'

/**
 * The house rules an edit can break, decided before it happens (the PreToolUse hook):
 * `one-actor-per-worktree` and `file-overlap`. `lease-collision` is the lease arbiter's own
 * decision. Pure: the hook reads the rungs, the presence rows and the overlap rows it needs.
 */

/** A session as presence last recorded it: the fields the rule looks at. */
export interface SessionSeen {
  readonly vendor: string
  readonly sessionId: string
  readonly handle: string
  readonly worktree: string | null
  readonly state: 'online' | 'idle' | 'offline'
  readonly updatedAt: number
}

/** One row of the daemon's overlap picture for an edited path. */
export interface OverlapSeen {
  readonly path: string
  readonly otherWorktree: string
  readonly otherBranch: string | null
  readonly conflicted: boolean
}

export interface EditRulesState {
  readonly oneActorPerWorktree: Rung
  readonly fileOverlap: Rung
  /** Every session presence knows (all machines). */
  readonly sessions: readonly SessionSeen[]
  /** The overlap rows of the edited paths in the editor's worktree. */
  readonly overlaps: readonly OverlapSeen[]
}

export interface EditRulesInput {
  readonly vendor: string | null
  readonly sessionId: string | null
  /** The worktree the editing session works in (absolute path). */
  readonly worktree: string
}

export interface EditRulesOutcome {
  /** Why the edit is denied; empty when it is not. */
  readonly denials: readonly string[]
  /** What the agent is told while the edit goes on. */
  readonly notes: readonly string[]
}

/**
 * How recently a session must have been seen to count as active (docs/decisions.md D135). Online
 * means a turn is running; presence is written when a turn starts and stops, so an online row is
 * as old as its turn, and one older than this is a session that died mid-turn. An idle session
 * waits for its human's next prompt: recent, it is still someone's lane; after half an hour it
 * stops holding the worktree.
 */
export const activeOnlineMs = 4 * 60 * 60 * 1000
export const activeIdleMs = 30 * 60 * 1000

/** An agent session (not a human in chat) that is working now, by the windows above. */
export function isActiveAgent(session: SessionSeen, now: number): boolean {
  if (session.vendor === 'human') return false
  const age = now - session.updatedAt
  if (session.state === 'online') return age < activeOnlineMs
  if (session.state === 'idle') return age < activeIdleMs
  return false
}

export function decideEditRules(state: EditRulesState, input: EditRulesInput, now: number): EditRulesOutcome {
  const denials: string[] = []
  const notes: string[] = []
  const land = (rung: Rung, refusal: string, note: string) => {
    if (rung === 'refuse') denials.push(refusal)
    else if (rung !== 'off') notes.push(note)
  }
  if (state.oneActorPerWorktree !== 'off') {
    const others = state.sessions.filter(
      (session) =>
        session.worktree === input.worktree &&
        !(session.vendor === input.vendor && session.sessionId === input.sessionId) &&
        isActiveAgent(session, now),
    )
    if (others.length > 0) {
      const who = others.map(describeSession).join(', ')
      land(
        state.oneActorPerWorktree,
        `one-actor-per-worktree is at refuse: ${who} ${others.length === 1 ? 'is' : 'are'} already active in this worktree (${input.worktree}). ` +
          'Settle who works here in the room (sangam post), or a human changes the rule (sangam rules set one-actor-per-worktree warn).',
        `one-actor-per-worktree (${state.oneActorPerWorktree}): ${who} ${others.length === 1 ? 'is' : 'are'} also active in this worktree.`,
      )
    }
  }
  if (state.fileOverlap !== 'off') {
    for (const overlap of state.overlaps) {
      const other = `${overlap.otherWorktree} (${overlap.otherBranch === null ? 'detached' : `branch ${overlap.otherBranch}`})`
      const merge = overlap.conflicted ? 'merging the two would conflict' : 'the two merge cleanly so far'
      land(
        state.fileOverlap,
        `file-overlap is at refuse: ${overlap.path} is also changed in ${other}, and ${merge}. ` +
          'Agree in the room who changes it (sangam post), or a human changes the rule (sangam rules set file-overlap warn).',
        `file-overlap (${state.fileOverlap}): ${overlap.path} is also changed in ${other}; ${merge}.`,
      )
    }
  }
  return { denials, notes }
}

function describeSession(session: SessionSeen): string {
  return `@${session.handle} (${session.vendor} session ${session.sessionId}, ${session.state})`
}
