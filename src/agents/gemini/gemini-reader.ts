import type { ReadEvent, TranscriptReader } from '../transcript-reader.ts'
import {
  eventOf,
  type GeminiState,
  initialGeminiState,
  restoreGeminiState,
  type Step,
  serialiseGeminiState,
  settle,
  skip,
  unknown,
} from './gemini-state.ts'

/**
 * Normalises Gemini CLI session files (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, 0.39+, and
 * a legacy record written whole on one line) into events. A file is a metadata line
 * (`{sessionId, projectHash, startTime, …}`), then messages (`{id, timestamp, type, content, …}`),
 * `{"$set": …}` patches (a `messages` array is a checkpoint of the whole history) and
 * `{"$rewindTo": id}`. The same message id repeats as it grows; what a copy adds is captured once
 * (gemini-state.ts). A session from before 0.39, one JSON document rewritten whole, is read from
 * sangam's journal of it (services/gemini-journal.ts), which holds the same records.
 * `docs/vendors/gemini.md` says which record becomes which event.
 */
export const geminiReader: TranscriptReader<GeminiState> = {
  vendor: 'gemini',
  initialState: () => initialGeminiState,
  restore: restoreGeminiState,
  serialise: serialiseGeminiState,
  read: readGeminiRecord,
  // No record carries the cwd or the CLI's version: the project root is beside the chats folder
  // (`project-root.ts`), and the version only reaches sangam through its hooks.
  facts: (state) => ({ sessionId: state.sessionId, cliVersion: null, firstCwd: null }),
}

type JsonObject = Readonly<Record<string, unknown>>

const maxText = 64 * 1024

function readGeminiRecord(state: GeminiState, record: unknown): Step {
  if (!isObject(record)) return unknown(state, `(${Array.isArray(record) ? 'array' : typeof record})`, '')
  if (typeof record.$rewindTo === 'string') return skip(state, 'lifecycle')
  if (isObject(record.$set)) {
    const messages = record.$set.messages
    if (!Array.isArray(messages)) return skip(state, 'metadata')
    return readMessages(state, messages, 'duplicate')
  }
  if (typeof record.id === 'string' && typeof record.type === 'string') {
    const read = readMessage(state, record)
    return read === null
      ? unknown(state, `message/${record.type}`, Object.keys(record).sort().join(','))
      : settle(read.state, read.events, read.otherwise)
  }
  if (typeof record.sessionId === 'string' && typeof record.projectHash === 'string') {
    const started = timeOf(record.startTime)
    const opened: GeminiState = {
      ...state,
      sessionId: state.sessionId ?? record.sessionId,
      lastAt: started ?? state.lastAt,
    }
    // A legacy session written whole on one line carries its messages in the same record.
    return Array.isArray(record.messages)
      ? readMessages(opened, record.messages, 'metadata')
      : skip(opened, 'metadata')
  }
  return unknown(state, 'record', Object.keys(record).sort().join(','))
}

/**
 * A checkpoint (or a legacy record's list): what is new in it is captured; when nothing is, the
 * reason is the one its messages share (a history of only the CLI's context is `injected`), else
 * `otherwise`.
 */
function readMessages(
  state: GeminiState,
  messages: readonly unknown[],
  otherwise: 'duplicate' | 'metadata',
): Step {
  let current = state
  const events: ReadEvent[] = []
  const reasons = new Set<Read['otherwise']>()
  for (const message of messages) {
    if (!isObject(message) || typeof message.id !== 'string' || typeof message.type !== 'string') continue
    const read = readMessage(current, message)
    if (read === null) continue
    current = read.state
    events.push(...read.events)
    reasons.add(read.otherwise)
  }
  const [only] = reasons
  return settle(current, events, reasons.size === 1 && only !== undefined ? only : otherwise)
}

interface Read {
  readonly state: GeminiState
  readonly events: readonly ReadEvent[]
  readonly otherwise: 'duplicate' | 'injected' | 'metadata' | 'empty'
}

/** One message, or a later copy of it: only what was not captured from an earlier copy. */
function readMessage(state: GeminiState, message: JsonObject): Read | null {
  const id = message.id as string
  const at = timeOf(message.timestamp) ?? state.lastAt
  const timed: GeminiState = at > state.lastAt ? { ...state, lastAt: at } : state
  switch (message.type) {
    case 'user':
      return readUser(timed, id, message, at)
    case 'gemini':
      return readGemini(timed, id, message, at)
    case 'info':
    case 'error':
    case 'warning':
      // The CLI's own notices to its user (a cancelled request, a quota warning).
      return { state: timed, events: [], otherwise: 'metadata' }
    default:
      return null
  }
}

function readUser(state: GeminiState, id: string, message: JsonObject, at: number): Read {
  const parts = partsOf(message.content)
  const events: ReadEvent[] = []
  let current = state
  let responses = 0
  for (const part of parts) {
    const response = isObject(part.functionResponse) ? part.functionResponse : null
    if (response === null) continue
    responses++
    const taken = toolOutput(current, response, at)
    current = taken.state
    if (taken.event !== null) events.push(taken.event)
  }
  const seen = current.said[id]
  const words = humanWords(parts)
  if (words === '' || seen?.text === true) {
    const otherwise =
      events.length > 0 || responses > 0 || seen !== undefined
        ? 'duplicate'
        : words === '' && hasText(parts)
          ? 'injected'
          : 'empty'
    return { state: current, events, otherwise }
  }
  current = { ...current, said: { ...current.said, [id]: { text: true, thoughts: 0 } } }
  return { state: current, events: [eventOf(current, 'human', words, at), ...events], otherwise: 'duplicate' }
}

function readGemini(state: GeminiState, id: string, message: JsonObject, at: number): Read {
  const seen = state.said[id] ?? { text: false, thoughts: 0 }
  const events: ReadEvent[] = []
  let current = state
  const thoughts = Array.isArray(message.thoughts) ? message.thoughts.filter(isObject) : []
  for (const thought of thoughts.slice(seen.thoughts)) {
    const body = [stringOr(thought.subject), stringOr(thought.description)]
      .filter((piece) => piece !== '')
      .join('\n')
    if (body !== '') events.push(eventOf(current, 'thinking', bound(body), timeOf(thought.timestamp) ?? at))
  }
  const parts = partsOf(message.content)
  for (const part of parts.filter((part) => part.thought === true && typeof part.text === 'string')) {
    if (seen.text) break
    events.push(eventOf(current, 'thinking', bound(part.text as string), at))
  }
  const said = parts
    .filter((part) => part.thought !== true && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('')
  const textNow = seen.text || said.trim() !== ''
  if (!seen.text && said.trim() !== '') events.push(eventOf(current, 'assistant', bound(said), at))
  current = {
    ...current,
    said: { ...current.said, [id]: { text: textNow, thoughts: Math.max(seen.thoughts, thoughts.length) } },
  }
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls.filter(isObject) : []
  for (const call of calls) {
    const callId = typeof call.id === 'string' ? call.id : null
    const name = typeof call.name === 'string' ? call.name : 'unknown'
    if (callId !== null && !current.calls.includes(callId)) {
      const args = isObject(call.args) ? JSON.stringify(call.args) : ''
      events.push(
        eventOf(
          current,
          'tool_call',
          bound(args === '' ? name : `${name} ${args}`),
          timeOf(call.timestamp) ?? at,
          { toolName: name, callId },
        ),
      )
      current = { ...current, calls: [...current.calls, callId] }
    }
    // The result, when this copy has it and the function response message did not come first.
    for (const part of partsOf(call.result)) {
      if (!isObject(part.functionResponse)) continue
      const taken = toolOutput(current, { id: callId, name, ...part.functionResponse }, at)
      current = taken.state
      if (taken.event !== null) events.push(taken.event)
    }
  }
  const otherwise = state.said[id] !== undefined ? 'duplicate' : 'empty'
  return { state: current, events, otherwise }
}

/** A function response's output, once per call id. */
function toolOutput(
  state: GeminiState,
  response: JsonObject,
  at: number,
): { state: GeminiState; event: ReadEvent | null } {
  const callId = typeof response.id === 'string' ? response.id : null
  const name = typeof response.name === 'string' ? response.name : null
  if (callId !== null && state.outputs.includes(callId)) return { state, event: null }
  const next = callId === null ? state : { ...state, outputs: [...state.outputs, callId] }
  const output = outputText(response.response)
  if (output === '') return { state: next, event: null }
  return { state: next, event: eventOf(next, 'tool_output', bound(output), at, { toolName: name, callId }) }
}

/** `{output}` or `{error}` as the tool gave it; anything else as its JSON. */
function outputText(response: unknown): string {
  if (!isObject(response)) return typeof response === 'string' ? response : ''
  if (typeof response.output === 'string') return response.output
  if (typeof response.error === 'string') return response.error
  return JSON.stringify(response)
}

/**
 * What the human typed: the text parts without the CLI's `<session_context>` part and without the
 * `<hook_context>…</hook_context>` blocks hooks added (sangam's own brief and room messages).
 */
function humanWords(parts: readonly JsonObject[]): string {
  return parts
    .filter((part) => typeof part.text === 'string')
    .map((part) => part.text as string)
    .filter((text) => !text.trimStart().startsWith('<session_context>'))
    .map((text) => text.replace(/<hook_context>[\s\S]*?<\/hook_context>\s*/g, '').trim())
    .filter((text) => text !== '')
    .join('\n')
}

function hasText(parts: readonly JsonObject[]): boolean {
  return parts.some((part) => typeof part.text === 'string' && part.text.trim() !== '')
}

/** `content` is a PartListUnion: a string, a part, or a list of strings and parts. */
function partsOf(content: unknown): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }]
  if (isObject(content)) return [content]
  if (!Array.isArray(content)) return []
  return content.flatMap((part) =>
    typeof part === 'string' ? [{ text: part }] : isObject(part) ? [part] : [],
  )
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : at
}

/** Cuts a text before it is stored whole; capture bounds tool output further. */
function bound(text: string): string {
  if (text.length <= maxText) return text
  const last = text.charCodeAt(maxText - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxText - 1 : maxText)
}
