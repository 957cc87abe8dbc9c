import type { ReadEvent, ReadOutcome } from '../transcript-reader.ts'
import { type ClaudeState, toolNameOf } from './claude-state.ts'
import { type Envelope, isJsonObject, type JsonObject, makeEvent, stringField } from './envelope.ts'
import { typedPrompt } from './human-prompt.ts'
import { capturedOr, oneEvent, type Step, skipped } from './step.ts'
import { toolResultText } from './tool-text.ts'
import { classifyUserText, isInjectedBlock, type UserText } from './user-text.ts'

/**
 * A `type: "user"` record is the human's prompt, or tool results, or text the CLI wrote in the
 * human's place (formats.md B1.9). Only a prompt that passes every test below is `human`.
 */
export function readUserRecord(state: ClaudeState, record: JsonObject, envelope: Envelope): Step {
  const content = isJsonObject(record.message) ? record.message.content : undefined
  if (Array.isArray(content) && content.some(isToolResultBlock)) {
    return { state, outcome: readToolResults(state, content, envelope) }
  }
  const text = typeof content === 'string' ? content : Array.isArray(content) ? promptText(content) : ''
  if (record.isCompactSummary === true) return oneEvent(state, envelope, 'system', text)
  if (record.isMeta === true) return stepForUserText(state, envelope, classifyUserText(text), 'system')
  if (record.toolUseResult !== undefined || typeof record.sourceToolAssistantUUID === 'string') {
    const callId = stringField(record.sourceToolUseID)
    return oneEvent(state, envelope, 'tool_output', toolResultText(content), {
      callId,
      toolName: callId === null ? null : toolNameOf(state, callId),
    })
  }
  // "Implement the following plan:" is written by the CLI when the human accepts a plan: the
  // human's command in the CLI's words, like a slash command, so the turn it starts is theirs.
  if (typeof record.planContent === 'string') return oneEvent(state, envelope, 'human', text)
  const origin = originKind(record)
  if (origin === 'task-notification') return { state, outcome: skipped('injected') }
  // Sidechain prompts are written by the parent agent; other origins are not the human typing.
  const fromHuman = record.isSidechain !== true && (origin === null || origin === 'human')
  return stepForUserText(state, envelope, classifyUserText(text), fromHuman ? 'human' : 'system')
}

/**
 * Turns judged user text into a step. `humanAs` says what words that look typed are: `human` for
 * a real prompt, `system` when the record says someone else wrote them.
 */
export function stepForUserText(
  state: ClaudeState,
  envelope: Envelope,
  judged: UserText,
  humanAs: 'human' | 'system',
  onHuman: (text: string, command: boolean) => Step = (text, command) =>
    typedPrompt(state, envelope, text, !command),
): Step {
  switch (judged.kind) {
    case 'human':
      return humanAs === 'human'
        ? onHuman(judged.text, judged.command)
        : oneEvent(state, envelope, 'system', judged.text)
    case 'system':
      return oneEvent(state, envelope, 'system', judged.text)
    case 'shell-output':
      // Output of a `!` command: tool output in all but name, and as likely to hold a secret.
      return oneEvent(state, envelope, 'tool_output', judged.text, { toolName: 'Bash' })
    case 'interrupted':
      return { state, outcome: skipped('lifecycle') }
    case 'injected':
    case 'empty':
      return { state, outcome: skipped(judged.kind) }
  }
}

/** `origin.kind` (2.1.168→): `human`, `task-notification`, `channel`…; null when absent. */
export function originKind(holder: JsonObject): string | null {
  return isJsonObject(holder.origin) ? stringField(holder.origin.kind) : null
}

/**
 * The text blocks of a prompt, without the CLI context blocks that can ride along (reminders);
 * images carry no text, their `[Image #n]` placeholders stay in the human's words.
 */
export function promptText(blocks: readonly unknown[]): string {
  const texts: string[] = []
  for (const block of blocks) {
    if (typeof block === 'string') texts.push(block)
    else if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string')
      texts.push(block.text)
  }
  const own = texts.filter((text) => !isInjectedBlock(text))
  return (own.length > 0 ? own : texts).join('\n')
}

/** One event per `tool_result` block (parallel calls can share a record); other text is context. */
function readToolResults(state: ClaudeState, blocks: readonly unknown[], envelope: Envelope): ReadOutcome {
  const events: ReadEvent[] = []
  for (const block of blocks) {
    if (!isJsonObject(block)) continue
    if (block.type === 'tool_result') {
      const text = toolResultText(block.content)
      if (text.trim() === '') continue
      const callId = stringField(block.tool_use_id)
      const toolName = callId === null ? null : toolNameOf(state, callId)
      events.push(makeEvent(envelope, 'tool_output', text, { callId, toolName }))
    } else if (block.type === 'text' && typeof block.text === 'string') {
      const judged = classifyUserText(block.text)
      if (judged.kind === 'human' || judged.kind === 'system')
        events.push(makeEvent(envelope, 'system', judged.text))
    }
  }
  return capturedOr(events, 'empty')
}

function isToolResultBlock(block: unknown): boolean {
  return isJsonObject(block) && block.type === 'tool_result'
}
