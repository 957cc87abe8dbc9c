import { fingerprint } from '../text-fingerprint.ts'
import { type CodexState, capture, eventOf, type Form, noteSaid, type Step, skip } from './codex-state.ts'
import { boundChars } from './text.ts'
import { isEmptyUserText, type UserText } from './user-text.ts'

/**
 * Codex writes each message up to three times: an `event_msg` (`user_message`, `agent_message`),
 * a `response_item` message, and in newer history modes an `item_completed` item. Which forms a
 * version writes, and in which order, changed across versions (legacy: response items only; 0.40
 * to 0.145: response item and event; 0.146+: event, response item or item). So whichever copy
 * arrives first is captured and later copies with the same text are skipped as duplicates; a
 * missing form can never lose the message.
 */

/** A `user`-role message, already sorted by `classifyUserText`. */
export function userSaid(state: CodexState, form: Form, said: UserText, hadText: boolean): Step {
  if (isEmptyUserText(said)) return skip(state, hadText ? 'injected' : 'empty')
  const noted = noteSaid(
    state,
    'user',
    form,
    fingerprint(`${said.human}\u0000${said.system}\u0000${said.shell}`),
  )
  if (noted.echo) return skip(noted.state, 'duplicate')
  const next = noted.state
  const events = []
  // In a subagent's thread the "user" is the parent agent: its task for the subagent is worth
  // recalling, but it is not the person's words.
  if (said.human !== '')
    events.push(eventOf(next, next.subagent ? 'system' : 'human', boundChars(said.human)))
  if (said.system !== '') events.push(eventOf(next, 'system', boundChars(said.system)))
  if (said.shell !== '')
    events.push(eventOf(next, 'tool_output', boundChars(said.shell), { toolName: 'user_shell' }))
  return capture(next, events)
}

/** An assistant message: the `message` response item, `agent_message` or an `AgentMessage` item. */
export function agentSaid(state: CodexState, form: Form, text: string): Step {
  if (text.trim() === '') return skip(state, 'empty')
  const noted = noteSaid(state, 'agent', form, fingerprint(text))
  if (noted.echo) return skip(noted.state, 'duplicate')
  return capture(noted.state, [eventOf(noted.state, 'assistant', boundChars(text))])
}

/**
 * A message between agents of a multi-agent run (0.145+): recorded as `system`, headed by who sent
 * it to whom, because it reached a model but is neither the person's nor this agent's own words.
 */
export function peerSaid(
  state: CodexState,
  form: Form,
  from: string | null,
  to: string | null,
  text: string,
): Step {
  if (text.trim() === '') return skip(state, 'empty')
  const noted = noteSaid(state, 'peer', form, fingerprint(text))
  if (noted.echo) return skip(noted.state, 'duplicate')
  const header = from !== null || to !== null ? `${from ?? '?'} → ${to ?? '?'}\n` : ''
  return capture(noted.state, [eventOf(noted.state, 'system', boundChars(header + text))])
}
