import { scrubNullable, scrubSecrets } from '../../secrets/core/scrubber.ts'
import { asFingerprint, fingerprint } from '../text-fingerprint.ts'
import { isJsonObject, type JsonObject } from './json-object.ts'
import { boundChars, maxBuiltText } from './tool-text.ts'

/**
 * What the Claude reader remembers between records. It is stored with the file offset at every
 * commit, so it stays small: every list is capped, and `restoreClaudeState` accepts anything (an
 * empty object, garbage, a state written by an older sangam) and fills what is missing.
 * States are never mutated: a change returns a new object and shares what did not change.
 * Nothing of a transcript is stored unscrubbed: tool ids are kept as fingerprints, tool names and
 * queued prompts scrubbed as they enter, and the latest session, version, cwd and branch scrubbed
 * when the state is stored (`serialiseClaudeState`), which changes no event, since events carry
 * them scrubbed too.
 */
export interface ClaudeState {
  readonly v: 1
  /** Latest `sessionId` seen; events of records without one fall back to it. */
  readonly sessionId: string | null
  /** Latest CLI `version` seen (a resumed file can mix versions). */
  readonly cliVersion: string | null
  /** First `cwd` seen in any record: decides whether the file belongs to the project. */
  readonly firstCwd: string | null
  /** Latest `cwd` and `gitBranch`, for records that carry none (queue operations). */
  readonly cwd: string | null
  readonly branch: string | null
  /** ms epoch of the last timestamp seen; records without one are placed there. */
  readonly lastAt: number
  /** `[fingerprint of the tool_use id, scrubbed tool name]`, oldest first: names the tool of a later `tool_result`. */
  readonly tools: readonly (readonly [string, string])[]
  /** Human prompts captured from the input queue whose echo (a `user` record or a `queued_command`) is still due. */
  readonly queued: readonly QueuedPrompt[]
}

/**
 * A queued prompt is matched on its length and its first `maxQueuedTextKept` characters, so a
 * pasted log typed while the agent was busy does not bloat the state.
 */
export interface QueuedPrompt {
  /** Scrubbed, after bounding (to `maxQueuedTextKept`, or `maxBuiltText` while not captured). */
  readonly text: string
  readonly length: number
  readonly at: number
  /**
   * False when the enqueue was not captured because nothing in the file had said which session,
   * CLI version and cwd it belongs to yet (a `-p` run opens with its enqueue): the echo, which
   * carries the full envelope, is then the human event.
   */
  readonly captured: boolean
}

/** Enough for every call still awaiting its result; parallel calls rarely exceed a few dozen. */
export const maxRememberedTools = 512
export const maxQueuedPrompts = 64
export const maxQueuedTextKept = 1024
/** Longer ids or names are not real Claude Code tool ids; they are not worth state. */
const maxToolIdLength = 256
/**
 * A queued prompt is echoed when the agent takes it, which can be a whole (long) turn later;
 * after this long an unmatched entry is stale and must not swallow a prompt typed again.
 */
export const queuedEchoWindowMs = 6 * 60 * 60 * 1000

export const initialClaudeState: ClaudeState = {
  v: 1,
  sessionId: null,
  cliVersion: null,
  firstCwd: null,
  cwd: null,
  branch: null,
  lastAt: 0,
  tools: [],
  queued: [],
}

export function serialiseClaudeState(state: ClaudeState): string {
  return JSON.stringify({
    ...state,
    sessionId: scrubNullable(state.sessionId),
    cliVersion: scrubNullable(state.cliVersion),
    firstCwd: scrubNullable(state.firstCwd),
    cwd: scrubNullable(state.cwd),
    branch: scrubNullable(state.branch),
  })
}

export function restoreClaudeState(json: string): ClaudeState {
  const raw = parseObject(json)
  if (raw === null) return initialClaudeState
  return {
    v: 1,
    sessionId: stringOrNull(raw.sessionId),
    cliVersion: stringOrNull(raw.cliVersion),
    firstCwd: stringOrNull(raw.firstCwd),
    cwd: stringOrNull(raw.cwd),
    branch: stringOrNull(raw.branch),
    lastAt: typeof raw.lastAt === 'number' && Number.isFinite(raw.lastAt) ? raw.lastAt : 0,
    tools: restoreTools(raw.tools),
    queued: restoreQueued(raw.queued),
  }
}

export function rememberTool(state: ClaudeState, callId: string, name: string): ClaudeState {
  if (callId.length > maxToolIdLength || name.length > maxToolIdLength) return state
  const kept = state.tools.length >= maxRememberedTools ? state.tools.slice(1) : state.tools
  return { ...state, tools: [...kept, [fingerprint(callId), scrubbedName(name)]] }
}

/** The tool a call id names, scrubbed. */
export function toolNameOf(state: ClaudeState, callId: string): string | null {
  if (state.tools.length === 0) return null
  const print = fingerprint(callId)
  for (let i = state.tools.length - 1; i >= 0; i--) {
    const entry = state.tools[i]
    if (entry !== undefined && entry[0] === print) return entry[1]
  }
  return null
}

/** Tool names repeat (`Bash`, `Read`): the last one scrubbed is remembered. */
let lastName = { raw: '', scrubbed: '' }

function scrubbedName(name: string): string {
  if (name !== lastName.raw) lastName = { raw: name, scrubbed: scrubSecrets(name) }
  return lastName.scrubbed
}

export function rememberQueued(state: ClaudeState, text: string, at: number, captured: boolean): ClaudeState {
  const kept = state.queued.length >= maxQueuedPrompts ? state.queued.slice(1) : state.queued
  // A prompt not captured yet keeps its words (up to the bound of built text): they may be all that is left of it.
  const stored = queuedForm(text, captured)
  return { ...state, queued: [...kept, { text: stored, length: text.length, at, captured }] }
}

/** How a queued prompt is kept, and how an echo is put to be compared with it. */
function queuedForm(text: string, captured: boolean): string {
  return scrubSecrets(boundChars(text, captured ? maxQueuedTextKept : maxBuiltText))
}

/**
 * Looks for the queued prompt that a `user` record or `queued_command` attachment echoes. A match
 * is consumed (each queued prompt has one echo), so typing the same words later is a new prompt.
 */
export function takeQueuedEcho(
  state: ClaudeState,
  text: string,
  at: number,
): { state: ClaudeState; captured: boolean } | null {
  if (state.queued.length === 0) return null
  const forms = new Map<boolean, string>()
  const formOf = (captured: boolean): string => {
    let form = forms.get(captured)
    if (form === undefined) {
      form = queuedForm(text, captured)
      forms.set(captured, form)
    }
    return form
  }
  const index = state.queued.findIndex(
    (entry) =>
      entry.length === text.length &&
      at - entry.at <= queuedEchoWindowMs &&
      entry.text === formOf(entry.captured),
  )
  const entry = state.queued[index]
  if (entry === undefined) return null
  return { state: { ...state, queued: state.queued.filter((_, i) => i !== index) }, captured: entry.captured }
}

/**
 * Drops every queued prompt still awaiting its echo: they can no longer be echoed. Returns the
 * ones never captured, whose words the caller must still record.
 */
export function forgetQueued(state: ClaudeState): {
  state: ClaudeState
  uncaptured: readonly QueuedPrompt[]
} {
  if (state.queued.length === 0) return { state, uncaptured: [] }
  return { state: { ...state, queued: [] }, uncaptured: state.queued.filter((entry) => !entry.captured) }
}

function parseObject(json: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(json)
    return isJsonObject(value) ? value : null
  } catch {
    return null
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function restoreTools(value: unknown): (readonly [string, string])[] {
  if (!Array.isArray(value)) return []
  const tools: (readonly [string, string])[] = []
  for (const entry of value.slice(-maxRememberedTools)) {
    if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') {
      // Older states kept the raw id and name.
      tools.push([asFingerprint(entry[0]), scrubbedName(entry[1])])
    }
  }
  return tools
}

function restoreQueued(value: unknown): QueuedPrompt[] {
  if (!Array.isArray(value)) return []
  const queued: QueuedPrompt[] = []
  for (const entry of value.slice(-maxQueuedPrompts)) {
    if (!isJsonObject(entry)) continue
    const { text, length, at, captured } = entry
    if (typeof text !== 'string' || typeof at !== 'number' || !Number.isFinite(at)) continue
    // States written before `captured` existed only held captured prompts.
    const wasCaptured = captured !== false
    queued.push({
      // Older states kept the raw text; scrubbing it again changes nothing.
      text: queuedForm(text, wasCaptured),
      length: typeof length === 'number' ? length : text.length,
      at,
      captured: wasCaptured,
    })
  }
  return queued
}
