import { scrubNullable } from '../../secrets/core/scrubber.ts'
import type { EventKind } from '../../shared/event-kinds.ts'
import { isRecord } from '../../shared/is-record.ts'
import type { ReadEvent, ReadOutcome, SkipReason, TranscriptReader } from '../transcript-reader.ts'

/**
 * Normalises opencode sessions, as the journal copies them (services/opencode-journal.ts), into events:
 * the person's text parts are `human` (a sub-session's, written by the parent agent's task tool,
 * `system`), the agent's `assistant`, reasoning parts `thinking`, a finished tool part a
 * `tool_call` and its `tool_output`. Step, snapshot and patch parts are bookkeeping.
 * `docs/vendors/opencode.md` lists every part type.
 */
export interface OpencodeState {
  readonly v: 1
  readonly sessionId: string | null
  readonly cliVersion: string | null
  readonly firstCwd: string | null
  readonly cwd: string | null
  /** The session was started by another session's task tool (its `parentID`). */
  readonly subagent: boolean
  readonly lastAt: number
  /** `[message id, role]` of recent messages, newest last. */
  readonly roles: readonly (readonly [string, string])[]
  /** Ids of recent parts, newest last: a part two copiers appended at once is read once. */
  readonly recent: readonly string[]
}

const maxRoles = 256
const maxRecent = 256
const maxField = 4096

const initialState: OpencodeState = {
  v: 1,
  sessionId: null,
  cliVersion: null,
  firstCwd: null,
  cwd: null,
  subagent: false,
  lastAt: 0,
  roles: [],
  recent: [],
}

interface Step {
  readonly state: OpencodeState
  readonly outcome: ReadOutcome
}

export const opencodeReader: TranscriptReader<OpencodeState> = {
  vendor: 'opencode',
  initialState: () => initialState,
  restore: restoreState,
  serialise: (state) =>
    JSON.stringify({
      ...state,
      sessionId: scrubNullable(state.sessionId),
      cliVersion: scrubNullable(state.cliVersion),
      firstCwd: scrubNullable(state.firstCwd),
      cwd: scrubNullable(state.cwd),
    }),
  read: readRecord,
  facts: (state) => ({ sessionId: state.sessionId, cliVersion: state.cliVersion, firstCwd: state.firstCwd }),
}

/** Parts that only mark the agent loop's progress. */
const lifecycleParts = new Set(['step-start', 'step-finish', 'retry', 'compaction', 'agent', 'subtask'])
/** Parts that describe files or the workspace, not what was said. */
const metadataParts = new Set(['snapshot', 'patch', 'file'])

function readRecord(state: OpencodeState, record: unknown): Step {
  if (!isRecord(record) || typeof record.type !== 'string') return unknown(state, 'record', record)
  const inner = record[record.type]
  if (!isRecord(inner)) return unknown(state, record.type, record)
  switch (record.type) {
    case 'session':
      return readSession(state, inner)
    case 'message':
      return readMessage(state, inner)
    case 'part':
      return readPart(state, inner)
    default:
      return unknown(state, record.type, inner)
  }
}

function readSession(state: OpencodeState, session: Record<string, unknown>): Step {
  const directory = field(session.directory)
  const next: OpencodeState = {
    ...state,
    sessionId: field(session.id) ?? state.sessionId,
    cliVersion: field(session.version) ?? state.cliVersion,
    firstCwd: state.firstCwd ?? directory,
    cwd: directory ?? state.cwd,
    subagent: field(session.parentID) !== null,
    lastAt: timeIn(session.time, 'created') ?? state.lastAt,
  }
  return skip(next, 'metadata')
}

function readMessage(state: OpencodeState, message: Record<string, unknown>): Step {
  const id = field(message.id)
  const role = field(message.role)
  if (id === null || role === null) return unknown(state, 'message', message)
  const path = isRecord(message.path) ? field(message.path.cwd) : null
  const roles = [...state.roles.filter(([known]) => known !== id), [id, role] as const].slice(-maxRoles)
  const next: OpencodeState = {
    ...state,
    sessionId: state.sessionId ?? field(message.sessionID),
    firstCwd: state.firstCwd ?? path,
    cwd: path ?? state.cwd,
    roles,
    lastAt: timeIn(message.time, 'created') ?? state.lastAt,
  }
  return skip(next, 'metadata')
}

function readPart(state: OpencodeState, part: Record<string, unknown>): Step {
  const id = field(part.id)
  const type = field(part.type)
  if (id === null || type === null) return unknown(state, 'part', part)
  if (state.recent.includes(id)) return skip(state, 'duplicate')
  const seen: OpencodeState = {
    ...state,
    sessionId: state.sessionId ?? field(part.sessionID),
    recent: [...state.recent, id].slice(-maxRecent),
    lastAt: timeIn(part.time, 'start') ?? timeIn(part.state, 'time') ?? state.lastAt,
  }
  const role = roleOf(seen, field(part.messageID))
  switch (type) {
    case 'text': {
      const text = typeof part.text === 'string' ? part.text : ''
      if (text.trim() === '') return skip(seen, 'empty')
      // Text opencode adds on the person's behalf (a file's contents, a command's expansion).
      if (part.synthetic === true || part.ignored === true) return skip(seen, 'injected')
      const kind: EventKind = role === 'user' ? (seen.subagent ? 'system' : 'human') : 'assistant'
      return capture(seen, [eventOf(seen, kind, text)])
    }
    case 'reasoning': {
      const text = typeof part.text === 'string' ? part.text : ''
      if (text.trim() === '') return skip(seen, 'empty')
      return capture(seen, [eventOf(seen, 'thinking', text)])
    }
    case 'tool':
      return readTool(seen, part)
    default:
      if (lifecycleParts.has(type)) return skip(seen, 'lifecycle')
      if (metadataParts.has(type)) return skip(seen, 'metadata')
      return unknown(state, `part.${type}`, part)
  }
}

/** A tool part: its call, and its output or error once it has one. */
function readTool(state: OpencodeState, part: Record<string, unknown>): Step {
  const tool = field(part.tool) ?? 'unknown'
  const callId = field(part.callID)
  const run = isRecord(part.state) ? part.state : {}
  const input = isRecord(run.input) ? JSON.stringify(run.input) : ''
  const call = eventOf(state, 'tool_call', input === '' ? tool : `${tool} ${input}`, tool, callId)
  const output =
    run.status === 'completed' && typeof run.output === 'string'
      ? run.output
      : run.status === 'error' && typeof run.error === 'string'
        ? run.error
        : ''
  const events = [call]
  if (output !== '') {
    const at = timeIn(run.time, 'end') ?? state.lastAt
    events.push({ ...eventOf(state, 'tool_output', output, tool, callId), at })
  }
  return capture(state, events)
}

function roleOf(state: OpencodeState, messageId: string | null): string | null {
  if (messageId === null) return null
  for (let i = state.roles.length - 1; i >= 0; i--) {
    const entry = state.roles[i]
    if (entry?.[0] === messageId) return entry[1]
  }
  return null
}

function eventOf(
  state: OpencodeState,
  kind: EventKind,
  text: string,
  toolName: string | null = null,
  callId: string | null = null,
): ReadEvent {
  return {
    kind,
    at: state.lastAt,
    sessionId: state.sessionId ?? '',
    cliVersion: state.cliVersion,
    cwd: state.cwd,
    branch: null,
    text,
    toolName,
    callId,
    joinKey: null,
  }
}

function skip(state: OpencodeState, reason: SkipReason): Step {
  return { state, outcome: { class: 'skipped', reason, events: [] } }
}

function capture(state: OpencodeState, events: readonly ReadEvent[]): Step {
  return { state, outcome: { class: 'captured', events } }
}

function unknown(state: OpencodeState, recordType: string, value: unknown): Step {
  const signature = isRecord(value) ? Object.keys(value).sort().join(',') : typeof value
  return { state, outcome: { class: 'unknown', events: [], unknown: { recordType, signature } } }
}

function field(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value.slice(0, maxField) : null
}

function timeIn(value: unknown, key: string): number | null {
  if (!isRecord(value)) return null
  const inner = value[key]
  if (typeof inner === 'number' && Number.isFinite(inner)) return inner
  // A tool's state keeps its times under `time` (`{start, end}`).
  if (isRecord(inner) && typeof inner.start === 'number') return inner.start
  return null
}

function restoreState(json: string): OpencodeState {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return initialState
  }
  if (!isRecord(value)) return initialState
  const roles = Array.isArray(value.roles)
    ? value.roles.filter(
        (entry): entry is [string, string] =>
          Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string',
      )
    : []
  const recent = Array.isArray(value.recent)
    ? value.recent.filter((id): id is string => typeof id === 'string')
    : []
  return {
    v: 1,
    sessionId: field(value.sessionId),
    cliVersion: field(value.cliVersion),
    firstCwd: field(value.firstCwd),
    cwd: field(value.cwd),
    subagent: value.subagent === true,
    lastAt: typeof value.lastAt === 'number' ? value.lastAt : 0,
    roles: roles.slice(-maxRoles),
    recent: recent.slice(-maxRecent),
  }
}
