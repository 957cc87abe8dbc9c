/**
 * Turn-aware scripting for the fake model servers. A conversation is a list of user turns: the
 * first prompt, then each prompt that continues the session (a resume, a queued message, a wake in
 * place, a Stop hook that keeps the agent going). Both CLIs resend the whole history on every
 * request, so the server can tell from the body which user turn a request belongs to (`index`,
 * from 0), what that turn's prompt said, and how many tool calls the agent already made in it
 * (`step`). A script is chosen per user turn; a turn walks its steps in order.
 */
export interface UserTurn {
  /** The session (Claude Code) or thread (Codex) the request belongs to, from its headers. */
  readonly sessionId: string | null
  /** Which user turn of the conversation this is: 0 for the first prompt. */
  readonly index: number
  /** The text of that turn's prompt as the model received it. */
  readonly prompt: string
}

/** One step list for every turn, or a choice per turn (by its index, prompt or session). */
export type Script<Step> = readonly Step[] | ((turn: UserTurn) => readonly Step[])

/** Where a main-loop request stands: its user turn, and how many tool calls that turn has made. */
export interface TurnPosition extends UserTurn {
  readonly step: number
}

/** The step a request gets: the turn's steps by position, the last one repeated past the end. */
export function stepFor<Step>(script: Script<Step>, position: TurnPosition, fallback: Step): Step {
  const steps = typeof script === 'function' ? script(position) : script
  return steps[Math.min(position.step, steps.length - 1)] ?? fallback
}

/** A script whose user turn `n` walks `turns[n]` (the last list for every later turn). */
export function perTurn<Step>(turns: readonly (readonly Step[])[]): Script<Step> {
  return (turn) => turns[Math.min(turn.index, turns.length - 1)] ?? []
}

/** The history a request body carries as a list under `key` (empty when it carries none). */
export function historyIn<Item>(body: unknown, key: string): Item[] {
  const list = (body as Record<string, unknown> | null)?.[key]
  return Array.isArray(list) ? (list as Item[]) : []
}

/**
 * Locates a request in its conversation: `items` is the history in order, `isPrompt` tells a user
 * prompt apart, `promptText` reads it, `isToolCall` marks the agent's calls.
 */
export function locate<Item>(
  items: readonly Item[],
  sessionId: string | null,
  isPrompt: (item: Item) => boolean,
  promptText: (item: Item) => string,
  isToolCall: (item: Item) => boolean,
): TurnPosition {
  let index = -1
  let prompt = ''
  let step = 0
  for (const item of items) {
    if (isPrompt(item)) {
      index += 1
      prompt = promptText(item)
      step = 0
    } else if (isToolCall(item)) step += 1
  }
  return { sessionId, index: Math.max(index, 0), prompt, step }
}

/** The user turns seen so far, once each (one turn spans several requests), in order of arrival. */
export function distinctTurns(positions: readonly (TurnPosition | null)[]): UserTurn[] {
  const seen = new Set<string>()
  const turns: UserTurn[] = []
  for (const position of positions) {
    if (position === null) continue
    const key = `${position.sessionId ?? '?'}\u0000${position.index}`
    if (seen.has(key)) continue
    seen.add(key)
    turns.push({ sessionId: position.sessionId, index: position.index, prompt: position.prompt })
  }
  return turns
}
