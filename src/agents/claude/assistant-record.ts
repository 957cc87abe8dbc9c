import type { ReadEvent } from '../transcript-reader.ts'
import { type ClaudeState, rememberTool, toolNameOf } from './claude-state.ts'
import { type Envelope, isJsonObject, type JsonObject, makeEvent, stringField } from './envelope.ts'
import { capturedOr, oneEvent, type Step, skipped } from './step.ts'
import { toolCallText, toolResultText } from './tool-text.ts'

/**
 * A `type: "assistant"` record holds one content block of one API message (formats.md B1.5):
 * lines of one message share `message.id`, so every text block carries it as its joinKey and
 * capture appends later blocks to the first. Other blocks are events of their own.
 */
export function readAssistantRecord(state: ClaudeState, record: JsonObject, envelope: Envelope): Step {
  const message = isJsonObject(record.message) ? record.message : {}
  if (message.model === '<synthetic>' || record.isApiErrorMessage === true) {
    return readSyntheticMessage(state, record, message, envelope)
  }
  const joinKey = stringField(message.id)
  const content =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
  const events: ReadEvent[] = []
  let next = state
  let encrypted = 0
  for (const block of Array.isArray(content) ? content : []) {
    if (!isJsonObject(block)) continue
    switch (block.type) {
      case 'text':
        if (typeof block.text === 'string' && block.text.trim() !== '') {
          events.push(makeEvent(envelope, 'assistant', block.text, { joinKey }))
        }
        break
      case 'thinking':
        // From 2.1.80 thinking is only a signature: reasoning happened but cannot be read.
        if (typeof block.thinking === 'string' && block.thinking.trim() !== '') {
          events.push(makeEvent(envelope, 'thinking', block.thinking))
        } else if (stringField(block.signature) !== null) encrypted++
        break
      case 'redacted_thinking':
        encrypted++
        break
      case 'tool_use':
      case 'server_tool_use': {
        const toolName = stringField(block.name)
        const callId = stringField(block.id)
        events.push(
          makeEvent(envelope, 'tool_call', toolCallText(toolName ?? 'tool', block.input), {
            toolName,
            callId,
          }),
        )
        if (callId !== null && toolName !== null) next = rememberTool(next, callId, toolName)
        break
      }
      default:
        // Server-side tools answer inside the assistant message (`web_search_tool_result`, …).
        if (typeof block.type === 'string' && block.type.endsWith('_tool_result')) {
          const callId = stringField(block.tool_use_id)
          const text = toolResultText(block.content)
          const toolName = callId === null ? null : toolNameOf(next, callId)
          if (text.trim() !== '') events.push(makeEvent(envelope, 'tool_output', text, { callId, toolName }))
        }
    }
  }
  return { state: next, outcome: capturedOr(events, encrypted > 0 ? 'encrypted' : 'empty', encrypted) }
}

/**
 * The CLI writes assistant-shaped records itself (`model: "<synthetic>"`): API errors ("Login
 * expired · Please run /login") are worth recalling; fillers such as "No response requested."
 * after a local command are not the model's words.
 */
function readSyntheticMessage(
  state: ClaudeState,
  record: JsonObject,
  message: JsonObject,
  envelope: Envelope,
): Step {
  if (record.isApiErrorMessage !== true) return { state, outcome: skipped('injected') }
  const texts = Array.isArray(message.content)
    ? message.content.flatMap((block) =>
        isJsonObject(block) && typeof block.text === 'string' ? [block.text] : [],
      )
    : [typeof message.content === 'string' ? message.content : '']
  return oneEvent(state, envelope, 'system', texts.join('\n'))
}
