import { arrayOr, isObject, type JsonObject, objectOr, text } from './codex-record.ts'
import {
  type CodexState,
  capture,
  eventOf,
  field,
  maxCallField,
  rememberCall,
  type Step,
  skip,
  takeCall,
} from './codex-state.ts'
import { agentSaid, peerSaid, userSaid } from './said.ts'
import { boundChars, contentText, joinBounded, maxBuiltText, toolOutputText } from './text.ts'
import { classifyUserText, environmentCwd, mergeUserTexts, type UserText } from './user-text.ts'

/**
 * One model-visible history item (formats.md B2.5): the payload of a `response_item` line, or a
 * whole line of a legacy (pre-envelope) rollout. Returns null for an item type this reader does
 * not know, so the caller can record its shape.
 */
export function readResponseItem(state: CodexState, item: JsonObject): Step | null {
  switch (item.type) {
    case 'message':
      return readMessage(state, item)
    case 'reasoning':
      return readReasoning(state, item)
    case 'function_call': {
      const name = toolName(item)
      const args = typeof item.arguments === 'string' ? item.arguments : ''
      return toolCall(state, name, callIdOf(item.call_id), args)
    }
    case 'custom_tool_call':
      // apply_patch's input is the patch itself: who edited which file is worth keeping.
      return toolCall(
        state,
        toolName(item),
        callIdOf(item.call_id),
        typeof item.input === 'string' ? item.input : '',
      )
    case 'local_shell_call':
      return toolCall(
        state,
        'local_shell',
        callIdOf(item.call_id) ?? callIdOf(item.id),
        shellCommand(item.action),
      )
    case 'web_search_call':
      return toolCall(state, 'web_search', callIdOf(item.call_id), searchText(item.action))
    case 'tool_search_call':
      return toolCall(state, 'tool_search', callIdOf(item.call_id), searchText(item.arguments))
    case 'image_generation_call':
      // `result` is the image itself (base64): only the prompt is text.
      return toolCall(state, 'image_generation', callIdOf(item.call_id), text(item.revised_prompt) ?? '')
    case 'function_call_output':
    case 'custom_tool_call_output':
      return toolOutput(state, callIdOf(item.call_id), toolOutputText(item.output))
    case 'tool_search_output':
      return toolOutput(state, callIdOf(item.call_id), toolNames(item.tools))
    case 'agent_message':
      return peerSaid(
        state,
        'r',
        text(item.author),
        text(item.recipient),
        contentText(item.content, inputTypes),
      )
    case 'ghost_snapshot':
    case 'compaction':
    case 'context_compaction':
      return skip(state, 'metadata') // undo snapshots and opaque compaction blobs
    default:
      return null
  }
}

const inputTypes = new Set(['input_text', 'text'])
const outputTypes = new Set(['output_text', 'text'])

function readMessage(state: CodexState, item: JsonObject): Step | null {
  switch (item.role) {
    case 'assistant':
      return agentSaid(state, 'r', contentText(item.content, outputTypes))
    case 'user':
      return readUserMessage(state, item)
    case 'developer':
      return readDeveloperMessage(state, item)
    case 'system':
      return skip(state, 'injected')
    default:
      return null
  }
}

/**
 * A user-role message mixes the person's words with injected blocks, part by part (one message in
 * 0.145 carries plugin list, AGENTS.md and environment together). The environment block is also
 * where a legacy rollout records its cwd.
 */
function readUserMessage(state: CodexState, item: JsonObject): Step {
  const parts: UserText[] = []
  let hadText = false
  let next = state
  for (const part of arrayOr(item.content)) {
    if (!isObject(part) || (part.type !== 'input_text' && part.type !== 'text')) continue
    const raw = text(part.text)
    if (raw === null) continue
    hadText = true
    if (next.cwd === null) {
      const cwd = field(environmentCwd(raw))
      if (cwd !== null) next = { ...next, cwd, firstCwd: next.firstCwd ?? cwd }
    }
    parts.push(classifyUserText(boundChars(raw), 'message'))
  }
  return userSaid(next, 'r', mergeUserTexts(parts), hadText)
}

/**
 * Developer messages are harness instructions, never the person's. The one exception worth
 * recalling is a SessionStart hook's additional context, which 0.171 marks per content part in
 * `internal_chat_message_metadata_passthrough.content_item_kinds`.
 */
function readDeveloperMessage(state: CodexState, item: JsonObject): Step {
  const kinds = arrayOr(objectOr(item.internal_chat_message_metadata_passthrough)?.content_item_kinds)
  const content = arrayOr(item.content)
  const pieces: string[] = []
  kinds.forEach((kind, index) => {
    const part = content[index]
    if (kind === 'hooks.additional_context' && isObject(part)) pieces.push(text(part.text) ?? '')
  })
  const hookContext = joinBounded(pieces, '\n')
  return hookContext === ''
    ? skip(state, 'injected')
    : capture(state, [eventOf(state, 'system', hookContext)])
}

/**
 * Reasoning text when Codex kept any (summaries, or raw content); since 0.118 it is usually only
 * `encrypted_content`, which is counted and never stored.
 */
function readReasoning(state: CodexState, item: JsonObject): Step {
  const pieces: string[] = []
  for (const list of [item.summary, item.content]) {
    for (const part of arrayOr(list)) if (isObject(part)) pieces.push(text(part.text) ?? '')
  }
  const thought = joinBounded(pieces, '\n\n')
  if (thought.trim() !== '') return capture(state, [eventOf(state, 'thinking', thought)])
  if (text(item.encrypted_content) === null) return skip(state, 'empty')
  return { state, outcome: { class: 'skipped', reason: 'encrypted', events: [], encryptedReasoning: 1 } }
}

function toolCall(state: CodexState, name: string, callId: string | null, input: string): Step {
  if (input.trim() === '' && callId === null) return skip(state, 'empty')
  const next = rememberCall(state, callId, name)
  const body =
    input === '' ? name : `${name} ${boundChars(input, Math.max(0, maxBuiltText - name.length - 1))}`
  return capture(next, [eventOf(next, 'tool_call', body, { toolName: name, callId })])
}

function toolOutput(state: CodexState, callId: string | null, output: string): Step {
  const taken = takeCall(state, callId)
  if (output === '') return skip(taken.state, 'empty')
  return capture(taken.state, [
    eventOf(taken.state, 'tool_output', output, { toolName: taken.toolName, callId }),
  ])
}

/** `name`, qualified by its `namespace` when it has one (0.124+: collaboration tools, MCP servers). */
function toolName(item: JsonObject): string {
  const name = text(item.name) ?? 'unknown'
  const namespace = text(item.namespace)
  return boundChars(namespace === null ? name : `${namespace}.${name}`, maxCallField)
}

function callIdOf(value: unknown): string | null {
  const id = text(value)
  return id === null ? null : boundChars(id, maxCallField)
}

function shellCommand(action: unknown): string {
  const command = objectOr(action)?.command
  if (typeof command === 'string') return command
  return joinBounded(
    arrayOr(command).filter((arg): arg is string => typeof arg === 'string'),
    ' ',
  )
}

/** The query of a web search or tool search: `query`, else `queries`, else the page or pattern. */
function searchText(action: unknown): string {
  const fields = objectOr(action)
  if (fields === null) return ''
  const queries = arrayOr(fields.queries).filter((query): query is string => typeof query === 'string')
  return (
    text(fields.query) ??
    (queries.length > 0 ? joinBounded(queries, '\n') : (text(fields.url) ?? text(fields.pattern) ?? ''))
  )
}

/** The names of the tools a tool search found (their specs are not conversation). */
function toolNames(tools: unknown): string {
  const names: string[] = []
  for (const tool of arrayOr(tools)) {
    if (!isObject(tool)) continue
    const inner = arrayOr(tool.tools)
      .map((child) => (isObject(child) ? text(child.name) : null))
      .filter((name): name is string => name !== null)
    const name = text(tool.name) ?? ''
    names.push(inner.length > 0 ? `${name}: ${inner.join(', ')}` : name)
  }
  return joinBounded(names, '\n')
}
