import type { ClaudeState } from './claude-state.ts'
import { type Envelope, isJsonObject, type JsonObject, stringField } from './envelope.ts'
import { deliveredPrompt } from './human-prompt.ts'
import { skippedAttachmentTypes } from './skip-table.ts'
import { oneEvent, type Step, skipped, unknownRecord } from './step.ts'
import { boundChars, maxBuiltText, textOfBlocks } from './tool-text.ts'
import { originKind, promptText, stepForUserText } from './user-record.ts'
import { classifyUserText } from './user-text.ts'

/**
 * `type: "attachment"` records (2.1.91→) carry context the CLI put next to a turn. Hook output that
 * reached the model is recallable (`system`); a prompt queued while the agent was busy is the
 * human's; the rest is listed in claude-skip-table.ts.
 */
export function readAttachment(state: ClaudeState, record: JsonObject, envelope: Envelope): Step {
  const attachment = record.attachment
  if (!isJsonObject(attachment)) return { state, outcome: skipped('empty') }
  const type = typeof attachment.type === 'string' ? attachment.type : '(missing)'
  switch (type) {
    case 'queued_command':
      return readQueuedCommand(state, record, attachment, envelope)
    case 'hook_additional_context':
      // Worded as the model receives it: "SessionStart hook additional context: …".
      return hookEvent(
        state,
        envelope,
        `${hookEventOf(attachment)} hook additional context`,
        attachment.content,
      )
    case 'hook_success':
      return hookEvent(state, envelope, `${hookNameOf(attachment)} hook success`, attachment.content)
    case 'hook_blocking_error':
      return hookEvent(
        state,
        envelope,
        `${hookNameOf(attachment)} hook blocking error`,
        blockingErrorOf(attachment),
      )
    case 'hook_non_blocking_error':
      return hookEvent(state, envelope, `${hookNameOf(attachment)} hook error`, attachment.stderr)
    case 'hook_error_during_execution':
      return hookEvent(state, envelope, `${hookNameOf(attachment)} hook error`, attachment.content)
  }
  const reason = skippedAttachmentTypes.get(type)
  return {
    state,
    outcome: reason === undefined ? unknownRecord(`attachment/${type}`, record) : skipped(reason),
  }
}

/**
 * A prompt typed while the agent was busy, handed to the model between tool calls. Only
 * `commandMode: "prompt"` (or `bash`) from a human is the human's; background task notices come
 * this way too.
 */
function readQueuedCommand(
  state: ClaudeState,
  record: JsonObject,
  attachment: JsonObject,
  envelope: Envelope,
): Step {
  const mode = attachment.commandMode
  const origin = originKind(attachment) ?? originKind(record)
  if (mode === 'task-notification' || origin === 'task-notification')
    return { state, outcome: skipped('injected') }
  const prompt = attachment.prompt
  const text = typeof prompt === 'string' ? prompt : Array.isArray(prompt) ? promptText(prompt) : ''
  const judged =
    mode === 'bash' && text.trim() !== ''
      ? classifyUserText(`<bash-input>${text}</bash-input>`)
      : classifyUserText(text)
  const fromHuman = origin === null || origin === 'human'
  return stepForUserText(state, envelope, judged, fromHuman ? 'human' : 'system', (words) =>
    deliveredPrompt(state, envelope, words),
  )
}

/** Hook text is a string or a list of strings; it is prefixed with what produced it. */
function hookEvent(state: ClaudeState, envelope: Envelope, label: string, content: unknown): Step {
  const text =
    typeof content === 'string'
      ? boundChars(content, maxBuiltText)
      : Array.isArray(content)
        ? textOfBlocks(content, maxBuiltText)
        : ''
  if (text.trim() === '') return { state, outcome: skipped('empty') }
  return oneEvent(state, envelope, 'system', `${label}: ${text}`)
}

function hookNameOf(attachment: JsonObject): string {
  return stringField(attachment.hookName) ?? stringField(attachment.hookEvent) ?? 'hook'
}

function hookEventOf(attachment: JsonObject): string {
  return stringField(attachment.hookEvent) ?? stringField(attachment.hookName) ?? 'hook'
}

/**
 * Not in the corpus: third-party parsers describe `blockingError` as `{ blockingError, command }`;
 * a plain string, or text in `content`, is accepted too.
 */
function blockingErrorOf(attachment: JsonObject): unknown {
  const error = attachment.blockingError
  if (isJsonObject(error)) return error.blockingError
  return error ?? attachment.content
}
