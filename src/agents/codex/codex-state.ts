import { scrubNullable, scrubSecrets } from '../../secrets/core/scrubber.ts'
import type { EventKind } from '../../shared/event-kinds.ts'
import { asFingerprint, fingerprint } from '../text-fingerprint.ts'
import type { ReadEvent, ReadOutcome, SkipReason } from '../transcript-reader.ts'
import { isObject } from './codex-record.ts'

/**
 * What the Codex reader remembers between records. It is stored with the file offset at every
 * commit, so it stays small: both lists are capped, and `restoreCodexState` accepts anything (an
 * empty object, garbage, a state written by an older sangam) and fills what is missing. States are
 * never mutated: a change returns a new object. Nothing of a transcript is stored unscrubbed:
 * thread ids and tool names are scrubbed as they enter, call ids and messages kept as
 * fingerprints, and the version, cwd and branch scrubbed when the state is stored
 * (`serialiseCodexState`), which changes no event, since events carry them scrubbed too.
 */
export interface CodexState extends Thread {
  readonly v: 1
  readonly firstCwd: string | null
  /** ms epoch of the last timestamp seen; legacy items have none and are placed there. */
  readonly lastAt: number
  /**
   * Threads below the one being read, the file's own first: non-empty while a forked or spawned
   * thread replays its parent's history (formats.md B2.3), and deeper when that parent was itself
   * a fork. The fields of the state are then the replayed thread's, so its records become the
   * events the parent's own file gives.
   */
  readonly below: readonly Thread[]
  /**
   * A copy of parent history whose parent is not known (a state written by an older sangam, which
   * skipped the copy): it is skipped to its end, as it was then.
   */
  readonly forkHistory: boolean
}

/** What the reader knows of the thread whose records it is reading. */
export interface Thread {
  /** The thread id: the file's own is the first `session_meta` (or the legacy header). */
  readonly sessionId: string | null
  readonly cliVersion: string | null
  /** Latest `turn_context.cwd`, else `session_meta.cwd`, else the legacy `<environment_context>`. */
  readonly cwd: string | null
  readonly branch: string | null
  /** The thread is a subagent's: its `user` messages were written by the parent agent. */
  readonly subagent: boolean
  /** `[fingerprint of call_id, scrubbed tool name]` of calls still awaiting their output, oldest first. */
  readonly calls: readonly Call[]
  /** Recent messages, newest last, to recognise Codex's second and third copy of each. */
  readonly said: readonly Said[]
}

export type Call = readonly [callId: string, toolName: string]

/** Who said a message: the person (or the parent agent in a subagent), the agent, a peer agent. */
export type Speaker = 'user' | 'agent' | 'peer'

/**
 * Where a copy came from: `e` event_msg, `r` response_item, `i` item_completed, `c` the
 * inter_agent_communication line. One message is written at most once per form.
 */
export type Form = 'e' | 'r' | 'i' | 'c'

export type Said = readonly [speaker: Speaker, fingerprint: string, forms: string]

/** Outstanding calls: parallel calls rarely exceed a dozen, and an output clears its call. */
export const maxCalls = 64
/** The copies of one message are written within a few records of each other. */
export const maxSaid = 12
/** Ids, versions, paths and branch names longer than this are garbage; they are cut, not stored whole. */
export const maxField = 4096
/** Call ids and tool names are short; a longer one is cut so the call list stays small. */
export const maxCallField = 256
/** Forks of forks nest; deeper copies than this are read as part of the thread that holds them. */
export const maxBelow = 8

export const initialCodexState: CodexState = {
  v: 1,
  sessionId: null,
  cliVersion: null,
  firstCwd: null,
  cwd: null,
  branch: null,
  lastAt: 0,
  subagent: false,
  calls: [],
  said: [],
  below: [],
  forkHistory: false,
}

/** The current thread's part of a state. */
export function threadOf(state: CodexState): Thread {
  const { sessionId, cliVersion, cwd, branch, subagent, calls, said } = state
  return { sessionId, cliVersion, cwd, branch, subagent, calls, said }
}

/** The file's own thread id, whichever thread is being read. */
export function ownSessionId(state: CodexState): string | null {
  return state.below[0]?.sessionId ?? state.sessionId
}

/** A session id, CLI version, cwd or branch as the state keeps it: bounded. */
export function field(value: string | null): string | null {
  return value === null || value.length <= maxField ? value : value.slice(0, maxField)
}

/** A thread id as the state keeps it: bounded and scrubbed, since threads are compared by it. */
export function threadId(value: string | null): string | null {
  const bounded = field(value)
  return bounded === null ? null : scrubSecrets(bounded)
}

export function serialiseCodexState(state: CodexState): string {
  return JSON.stringify({ ...scrubbedThread(state), below: state.below.map(scrubbedThread) })
}

function scrubbedThread<T extends Thread & { readonly firstCwd?: string | null }>(thread: T): T {
  return {
    ...thread,
    cliVersion: scrubNullable(thread.cliVersion),
    cwd: scrubNullable(thread.cwd),
    branch: scrubNullable(thread.branch),
    ...(thread.firstCwd === undefined ? {} : { firstCwd: scrubNullable(thread.firstCwd) }),
  }
}

export function restoreCodexState(json: string): CodexState {
  const raw = parseObject(json)
  if (raw === null) return initialCodexState
  return {
    v: 1,
    ...restoreThread(raw),
    firstCwd: stringOrNull(raw.firstCwd),
    lastAt: typeof raw.lastAt === 'number' && Number.isFinite(raw.lastAt) ? raw.lastAt : 0,
    below: Array.isArray(raw.below)
      ? raw.below
          .filter(isObject)
          .slice(0, maxBelow)
          .map((thread) => restoreThread(thread))
      : [],
    forkHistory: raw.forkHistory === true,
  }
}

/** Tool names repeat (`exec_command`, `apply_patch`): the last one scrubbed is remembered. */
let lastName = { raw: '', scrubbed: '' }

function scrubbedName(name: string): string {
  if (name !== lastName.raw) lastName = { raw: name, scrubbed: scrubSecrets(name) }
  return lastName.scrubbed
}

function restoreThread(raw: Record<string, unknown>): Thread {
  return {
    // Older states kept these raw; scrubbing again changes nothing.
    sessionId: threadId(stringOrNull(raw.sessionId)),
    cliVersion: stringOrNull(raw.cliVersion),
    cwd: stringOrNull(raw.cwd),
    branch: stringOrNull(raw.branch),
    subagent: raw.subagent === true,
    calls: Array.isArray(raw.calls)
      ? raw.calls
          .filter(isCall)
          .slice(-maxCalls)
          .map(([id, name]) => [asFingerprint(id), scrubbedName(name)] as const)
      : [],
    said: Array.isArray(raw.said) ? raw.said.filter(isSaid).slice(-maxSaid) : [],
  }
}

/** Remembers the tool name of a call so its output, a few records later, can be named. */
export function rememberCall(state: CodexState, callId: string | null, toolName: string): CodexState {
  if (callId === null) return state
  const id = fingerprint(callId.slice(0, maxCallField))
  const calls = state.calls.filter(([known]) => known !== id)
  calls.push([id, scrubbedName(toolName.slice(0, maxCallField))])
  return { ...state, calls: calls.length > maxCalls ? calls.slice(-maxCalls) : calls }
}

/** The tool name of an output's call, and the state without that call. */
export function takeCall(
  state: CodexState,
  callId: string | null,
): { state: CodexState; toolName: string | null } {
  if (callId === null || state.calls.length === 0) return { state, toolName: null }
  const id = fingerprint(callId.slice(0, maxCallField))
  const call = state.calls.find(([known]) => known === id)
  if (call === undefined) return { state, toolName: null }
  return { state: { ...state, calls: state.calls.filter((entry) => entry !== call) }, toolName: call[1] }
}

/**
 * Records one copy of a message. Returns `echo: true` when it is a later copy of a message already
 * captured: a recent message with the same fingerprint that has not yet been seen in this form.
 * The same text in the same form again is a new message (the person typed "proceed" twice).
 */
export function noteSaid(
  state: CodexState,
  speaker: Speaker,
  form: Form,
  print: string,
): { state: CodexState; echo: boolean } {
  for (let i = state.said.length - 1; i >= 0; i--) {
    const entry = state.said[i]
    if (entry === undefined || entry[0] !== speaker || entry[1] !== print || entry[2].includes(form)) continue
    const said = state.said.slice()
    said[i] = [speaker, print, entry[2] + form]
    return { state: { ...state, said }, echo: true }
  }
  const said = [...state.said, [speaker, print, form] as const]
  return { state: { ...state, said: said.length > maxSaid ? said.slice(-maxSaid) : said }, echo: false }
}

/** The result of reading one record. */
export interface Step {
  readonly state: CodexState
  readonly outcome: ReadOutcome
}

export function skip(state: CodexState, reason: SkipReason): Step {
  return { state, outcome: { class: 'skipped', reason, events: [] } }
}

export function capture(state: CodexState, events: readonly ReadEvent[]): Step {
  return { state, outcome: { class: 'captured', events } }
}

export function unknown(state: CodexState, recordType: string, signature: string): Step {
  return { state, outcome: { class: 'unknown', events: [], unknown: { recordType, signature } } }
}

/** An event attributed from the state: the session, CLI version, cwd, branch and time in force. */
export function eventOf(
  state: CodexState,
  kind: EventKind,
  text: string,
  tool: { readonly toolName?: string | null; readonly callId?: string | null } = {},
): ReadEvent {
  return {
    kind,
    at: state.lastAt,
    sessionId: state.sessionId ?? '',
    cliVersion: state.cliVersion,
    cwd: state.cwd,
    branch: state.branch,
    text,
    toolName: tool.toolName ?? null,
    callId: tool.callId ?? null,
    joinKey: null,
  }
}

function parseObject(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json)
    return isObject(value) ? value : null
  } catch {
    return null // a corrupt stored state restarts the reader's memory, never the capture
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? field(value) : null
}

function isCall(value: unknown): value is Call {
  return (
    Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string'
  )
}

const speakers: ReadonlySet<unknown> = new Set(['user', 'agent', 'peer'])

function isSaid(value: unknown): value is Said {
  return (
    Array.isArray(value) &&
    value.length === 3 &&
    speakers.has(value[0]) &&
    typeof value[1] === 'string' &&
    typeof value[2] === 'string' &&
    value[1].length <= 64 &&
    value[2].length <= 8
  )
}
