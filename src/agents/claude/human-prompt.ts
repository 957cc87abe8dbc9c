import { type ClaudeState, forgetQueued, rememberQueued, takeQueuedEcho } from './claude-state.ts'
import { type Envelope, makeEvent } from './envelope.ts'
import { capturedOr, type Step, skipped } from './step.ts'

/**
 * One prompt can reach the transcript up to twice. Typed while the agent is busy, it is first a
 * `queue-operation` enqueue, then either a `queued_command` attachment (2.1.1xx and later) or a
 * plain `user` record (older 2.1.1xx, and every `-p` run, which enqueues its prompt first). The
 * first sighting is the human event, so the words survive even if the session dies before the
 * agent takes them; the echo is a duplicate. One exception: an enqueue written before any record
 * said which CLI version and cwd the session has (the first line of a `-p` run) is held back, and
 * its echo, which carries the full envelope, becomes the human event instead.
 */

/** A prompt entering the input queue (`queue-operation` enqueue). */
export function queuedPrompt(state: ClaudeState, envelope: Envelope, text: string): Step {
  if (envelope.cliVersion === null && envelope.cwd === null) {
    return { state: rememberQueued(state, text, envelope.at, false), outcome: skipped('lifecycle') }
  }
  return {
    state: rememberQueued(state, text, envelope.at, true),
    outcome: capturedOr([makeEvent(envelope, 'human', text)], 'empty'),
  }
}

/** A queued prompt handed to the model between tool calls (`queued_command` attachment). */
export function deliveredPrompt(state: ClaudeState, envelope: Envelope, text: string): Step {
  const echoed = takeQueuedEcho(state, text, envelope.at)
  if (echoed?.captured) return { state: echoed.state, outcome: skipped('duplicate') }
  return { state: echoed?.state ?? state, outcome: capturedOr([makeEvent(envelope, 'human', text)], 'empty') }
}

/**
 * A prompt in a `user` record: the echo of a queued prompt, or typed at an idle agent. A plain
 * prompt typed at an idle agent means the queue was drained (anything left was taken back to be
 * edited), so stale entries are dropped; a slash command may run while the agent is busy, so it
 * drains nothing.
 */
export function typedPrompt(
  state: ClaudeState,
  envelope: Envelope,
  text: string,
  drainsQueue: boolean,
): Step {
  const echoed = takeQueuedEcho(state, text, envelope.at)
  if (echoed?.captured) return { state: echoed.state, outcome: skipped('duplicate') }
  const rest = echoed?.state ?? state
  const typed = makeEvent(envelope, 'human', text)
  if (!drainsQueue) return { state: rest, outcome: capturedOr([typed], 'empty') }
  const drained = forgetQueued(rest)
  // Prompts held back at the start of the file and never echoed are still the human's words.
  const held = drained.uncaptured.map((entry) =>
    makeEvent({ ...envelope, at: entry.at }, 'human', entry.text),
  )
  return { state: drained.state, outcome: capturedOr([...held, typed], 'empty') }
}
