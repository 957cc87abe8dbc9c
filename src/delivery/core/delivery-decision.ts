import type { WakeOnTag } from '../../room/protocol/wake-on-tag.ts'
import type { DeliveryChannel, DeliveryVendor, SenderKind } from './delivery-vocabulary.ts'

/**
 * What to do for one session with the messages that tag it: the guards, in order, then the
 * channel its state allows. Pure: the store gathers the facts (the ledger's running turn, its last
 * turn, the loop count), the services the session's liveness and the vendor CLI's abilities.
 *
 * Guards per message: never sangam's own messages, never an echo into the session that sent it,
 * the room's policy (`off` wakes nobody, `direct` only an `@handle`), never a message older than
 * the staleness bound, never past the loop budget (turns caused by agents since a human last
 * reached the session: only a person's tag that names the session resets it; an agent's, one
 * whose author nobody could tell, and any that reaches the session only as a participant of the
 * thread it was posted into count against it). Guards per session: never a turn while one runs for it (the Stop hook
 * hands the messages over instead), at most one turn per cooldown. A session open in a terminal is
 * never resumed headless beside it: it gets the messages at its next prompt, or pasted in its tmux
 * pane.
 */

/** One message tagging the session. */
export interface TagFact {
  readonly messageId: string
  readonly senderKind: SenderKind
  /** The session that posted it, when an agent did. */
  readonly fromSession: { readonly vendor: string; readonly sessionId: string } | null
  /** ms epoch, the poster's clock. */
  readonly at: number
  /**
   * How it names the session: its `@handle`, its `#worktree`, `thread` (the session is a
   * participant of the thread it was posted into, nothing else names it), or `direct` (`send`:
   * no tag needed).
   */
  readonly by: 'handle' | 'worktree' | 'thread' | 'direct'
}

/**
 * Whether the tag resets the loop budget: a person's, naming the session itself. A thread's
 * routing to its participants never does, whoever posted (D272): it is the room's echo, not a
 * person turning to this session.
 */
export function resetsLoopBudget(tag: TagFact): boolean {
  return tag.senderKind === 'human' && tag.by !== 'thread'
}

/** The session's state as delivery sees it. */
export interface SessionFact {
  readonly vendor: DeliveryVendor
  readonly sessionId: string
  /** The stored presence: online (a turn runs), idle (at rest, open), offline (ended: dormant); null when unknown. */
  readonly presence: 'online' | 'idle' | 'offline' | null
  /** A turn sangam started for it is still running (the ledger). */
  readonly turnRunning: boolean
  /** ms epoch when the last turn sangam started for it began, or null. */
  readonly lastTurnAt: number | null
  /** Turns caused by agents' messages since a human's message or command last reached it. */
  readonly agentTurns: number
  /** It has a live endpoint to wake it in place (WakeInPlace). */
  readonly wakeable: boolean
  /** Claude Code's own list says it is open (true), is not (false), or cannot tell (null). */
  readonly openElsewhere: boolean | null
  /** The tmux pane it runs in, when sangam knows it. */
  readonly tmuxPane: string | null
  /** Its turn waits at a question for a person (Claude Code lists it `blocked`). */
  readonly atQuestion: boolean
}

/** What the installed vendor CLI offers, read from its `--help`. */
export interface VendorAbilities {
  readonly found: boolean
  /** Codex `queue --thread … --message … --resume`. */
  readonly queue: boolean
  /** Claude Code `--bg --resume <id>`. */
  readonly background: boolean
}

export interface DeliveryPolicy {
  readonly wakeOnTag: WakeOnTag
  readonly cooldownMs: number
  /** At most this many turns caused by agents in a row, until a human reaches the session. */
  readonly loopBudget: number
  /** A tag older than this is not delivered as a turn (the machine was away). */
  readonly staleMs: number
}

export interface DeliveryInput {
  readonly session: SessionFact
  readonly tags: readonly TagFact[]
  /**
   * What the vendor CLI offers; null when it was not looked up because the session wakes in place
   * (`wakeable`), which needs no CLI. Null counts as no CLI for any other channel.
   */
  readonly abilities: VendorAbilities | null
  readonly policy: DeliveryPolicy
  /** `tag`: the daemon reacting to a post; `send`: a person or agent asking for a turn now. */
  readonly mode: 'tag' | 'send'
  /** The prompt is small enough for a vendor channel that takes it in argv. */
  readonly promptFitsArgv: boolean
}

export type Refusal =
  | 'sangam-message'
  | 'echo'
  | 'policy-off'
  | 'policy-direct'
  | 'unknown-session'
  | 'stale'
  | 'loop-budget'
  | 'active-elsewhere'

export type Wait = 'turn-running' | 'at-question' | 'cooldown' | 'next-prompt'

export type SessionAction =
  /** Nothing left to carry (every tag refused). */
  | { readonly kind: 'none' }
  /** Keep the carried tags pending: a guard or the session's next prompt will carry them. */
  | { readonly kind: 'wait'; readonly reason: Wait; readonly channel: DeliveryChannel | null }
  /** Start a turn through `channel` carrying them. */
  | { readonly kind: 'start'; readonly channel: 'wake' | 'queue' | 'background' | 'resume' }
  /** Paste them into the session's pane (no Enter: no turn starts until its human says so). */
  | { readonly kind: 'paste'; readonly pane: string }
  /** The vendor CLI cannot be run: the tags fail, saying so. */
  | { readonly kind: 'fail'; readonly reason: 'vendor-cli-missing' }
  /** The session cannot take this now (`send` to a session open elsewhere). */
  | { readonly kind: 'refuse'; readonly reason: Refusal }

export interface DeliveryDecision {
  readonly refused: readonly { readonly messageId: string; readonly reason: Refusal }[]
  /** The tags the action carries (all not refused). */
  readonly carried: readonly string[]
  /** Whether the carried tags include a person's that resets the loop budget (`resetsLoopBudget`). */
  readonly humanCause: boolean
  readonly action: SessionAction
}

export function decideDelivery(input: DeliveryInput, now: number): DeliveryDecision {
  const { session, policy } = input
  const refused: { messageId: string; reason: Refusal }[] = []
  const kept: TagFact[] = []
  const humanCause = input.tags.some(resetsLoopBudget)
  for (const tag of input.tags) {
    const reason = refusalOf(tag, input, humanCause, now)
    if (reason === null) kept.push(tag)
    else refused.push({ messageId: tag.messageId, reason })
  }
  const carried = kept.map((tag) => tag.messageId)
  const done = (action: SessionAction): DeliveryDecision => ({
    refused,
    carried,
    humanCause: kept.some(resetsLoopBudget),
    action,
  })
  if (kept.length === 0) return done({ kind: 'none' })
  if (session.presence === null) {
    return {
      refused: [
        ...refused,
        ...kept.map((tag) => ({ messageId: tag.messageId, reason: 'unknown-session' as const })),
      ],
      carried: [],
      humanCause: false,
      action: { kind: 'none' },
    }
  }
  // A turn that waits for a person (whatever the hooks last said): its Stop, once answered, hands
  // the tags over.
  if (session.atQuestion) return done({ kind: 'wait', reason: 'at-question', channel: 'hand-over' })
  if (session.turnRunning || session.presence === 'online') {
    return done({ kind: 'wait', reason: 'turn-running', channel: 'hand-over' })
  }
  const channel = channelFor(input)
  if (
    channel.kind === 'start' &&
    session.lastTurnAt !== null &&
    now - session.lastTurnAt < policy.cooldownMs
  ) {
    return done({ kind: 'wait', reason: 'cooldown', channel: channel.channel })
  }
  return done(channel)
}

function refusalOf(tag: TagFact, input: DeliveryInput, humanCause: boolean, now: number): Refusal | null {
  const { session, policy } = input
  if (tag.senderKind === 'sangam') return 'sangam-message'
  if (
    tag.fromSession !== null &&
    tag.fromSession.vendor === session.vendor &&
    tag.fromSession.sessionId === session.sessionId
  )
    return 'echo'
  if (input.mode === 'tag') {
    if (policy.wakeOnTag === 'off') return 'policy-off'
    if ((tag.by === 'worktree' || tag.by === 'thread') && policy.wakeOnTag !== 'all') return 'policy-direct'
    if (now - tag.at > policy.staleMs) return 'stale'
  }
  // A person's tag among the carried ones resets the count, so the others ride along with it.
  if (!resetsLoopBudget(tag) && !humanCause && session.agentTurns >= policy.loopBudget) return 'loop-budget'
  return null
}

function channelFor(input: DeliveryInput): SessionAction {
  const { session, abilities } = input
  const open = session.presence === 'idle' && session.openElsewhere !== false
  if (session.presence === 'idle' && session.wakeable) return { kind: 'start', channel: 'wake' }
  if (open) {
    // Never a headless turn beside a session open in a terminal: two writers on one transcript.
    if (input.mode === 'send') return { kind: 'refuse', reason: 'active-elsewhere' }
    if (session.tmuxPane !== null) return { kind: 'paste', pane: session.tmuxPane }
    return { kind: 'wait', reason: 'next-prompt', channel: 'next-prompt' }
  }
  if (abilities === null || !abilities.found) return { kind: 'fail', reason: 'vendor-cli-missing' }
  if (session.vendor === 'codex' && abilities.queue && input.promptFitsArgv)
    return { kind: 'start', channel: 'queue' }
  if (session.vendor === 'claude' && abilities.background && input.promptFitsArgv)
    return { kind: 'start', channel: 'background' }
  return { kind: 'start', channel: 'resume' }
}
