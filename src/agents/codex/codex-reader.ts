import type { TranscriptReader } from '../transcript-reader.ts'
import {
  isObject,
  isUuidV7,
  type JsonObject,
  objectOr,
  signatureOf,
  text,
  timeOf,
  uuidTime,
} from './codex-record.ts'
import {
  type CodexState,
  capture,
  eventOf,
  field,
  initialCodexState,
  maxBelow,
  ownSessionId,
  restoreCodexState,
  type Step,
  serialiseCodexState,
  skip,
  threadId,
  threadOf,
  unknown,
} from './codex-state.ts'
import { readEventMsg } from './event-msg.ts'
import { readResponseItem } from './response-item.ts'
import { peerSaid } from './said.ts'
import { boundChars } from './text.ts'

/**
 * Normalises Codex rollouts (`~/.codex/sessions/…/rollout-*.jsonl`), every format from the legacy
 * pre-envelope files (2025-09) to 0.171, into events. `docs/architecture.md` ("Capture: Codex")
 * explains which record becomes which event and why.
 */
export const codexReader: TranscriptReader<CodexState> = {
  vendor: 'codex',
  initialState: () => initialCodexState,
  restore: restoreCodexState,
  serialise: serialiseCodexState,
  read: readCodexRecord,
  facts: (state) => ({
    sessionId: ownSessionId(state),
    cliVersion: state.below[0]?.cliVersion ?? state.cliVersion,
    firstCwd: state.firstCwd,
  }),
}

/** Line types that only describe the session or its settings. */
const metadataLines = new Set([
  'world_state',
  'token_usage_record',
  'inter_agent_communication_metadata',
  'realtime_item',
  'security_risk_score',
])

function readCodexRecord(state: CodexState, record: unknown): Step {
  if (!isObject(record)) return unknown(state, `(${valueKind(record)})`, '')
  const at = timeOf(record.timestamp)
  const timed = at === null || at === state.lastAt ? state : { ...state, lastAt: at }
  const payload = objectOr(record.payload)
  if (typeof record.type === 'string' && payload !== null)
    return readEnvelope(timed, record, record.type, payload)
  return readLegacy(timed, record)
}

/** A `{timestamp, type, payload}` line (formats.md B2.2). */
function readEnvelope(state: CodexState, record: JsonObject, type: string, payload: JsonObject): Step {
  let current = state
  if (current.forkHistory) {
    if (!endsForkHistory(current, type, payload)) return skip(current, 'fork-history')
    current = { ...current, forkHistory: false }
  } else if (current.below.length > 0) {
    current = threadOfTurn(current, type, payload)
  }
  switch (type) {
    case 'session_meta':
      return readSessionMeta(current, payload)
    case 'turn_context': {
      const cwd = field(text(payload.cwd))
      if (cwd === null) return skip(current, 'metadata')
      // A replayed parent's cwd is where the parent worked; the file's scope is its own thread's.
      const firstCwd = current.below.length === 0 ? (current.firstCwd ?? cwd) : current.firstCwd
      return skip({ ...current, cwd, firstCwd }, 'metadata')
    }
    case 'response_item':
      return (
        readResponseItem(current, payload) ??
        unknown(current, `${type}/${typeName(payload.type)}`, signatureOf(record))
      )
    case 'event_msg':
      return readEventMsg(current, payload) ?? unknown(current, eventRecordType(payload), signatureOf(record))
    case 'compacted': {
      // The summary the model continues from. `replacement_history` repeats earlier messages and
      // is never read.
      const summary = text(payload.message)
      return summary === null
        ? skip(current, 'empty')
        : capture(current, [eventOf(current, 'system', boundChars(summary))])
    }
    case 'inter_agent_communication':
      return peerSaid(
        current,
        'c',
        text(payload.author),
        text(payload.recipient),
        boundChars(text(payload.content) ?? ''),
      )
    default:
      return metadataLines.has(type) ? skip(current, 'metadata') : unknown(current, type, signatureOf(record))
  }
}

/**
 * The first `session_meta` is the file's own thread. The same id again is a resume appending to
 * the file. A different id is the parent of a forked or spawned thread, whose history follows,
 * copied and re-stamped with the fork time (formats.md B2.3): it is read as the parent's own file
 * reads, as that thread, so its events get the ids the parent's file gives them and are stored
 * once whichever file is read first; when the parent's file is gone, or on another machine, or
 * older than the window, the copy is all that holds the person's words. The id of a thread read
 * before is a return to it.
 */
function readSessionMeta(state: CodexState, meta: JsonObject): Step {
  const id = threadId(text(meta.id) ?? text(meta.session_id))
  const metaVersion = field(text(meta.cli_version))
  const metaBranch = field(text(objectOr(meta.git)?.branch))
  if (state.sessionId === null && state.below.length === 0) {
    const cwd = state.cwd ?? field(text(meta.cwd))
    return skip(
      {
        ...state,
        sessionId: id,
        cliVersion: metaVersion ?? state.cliVersion,
        branch: metaBranch ?? state.branch,
        cwd,
        firstCwd: state.firstCwd ?? cwd,
        subagent: isSubagent(meta),
      },
      'metadata',
    )
  }
  const below = id === null ? -1 : state.below.findIndex((thread) => thread.sessionId === id)
  if (id === null || id === state.sessionId || below !== -1) {
    const resumed = below === -1 ? state : returnTo(state, below)
    return skip(
      { ...resumed, cliVersion: metaVersion ?? resumed.cliVersion, branch: metaBranch ?? resumed.branch },
      'metadata',
    )
  }
  if (state.below.length >= maxBelow) return skip(state, 'metadata')
  return skip(
    {
      ...state,
      below: [...state.below, threadOf(state)],
      sessionId: id,
      cliVersion: metaVersion,
      branch: metaBranch,
      cwd: field(text(meta.cwd)),
      subagent: isSubagent(meta),
      calls: [],
      said: [],
    },
    'metadata',
  )
}

function isSubagent(meta: JsonObject): boolean {
  return objectOr(meta.source)?.subagent !== undefined || meta.thread_source === 'subagent'
}

/** The state reading the thread `below[index]` again, with the threads above it finished. */
function returnTo(state: CodexState, index: number): CodexState {
  const thread = state.below[index]
  if (thread === undefined) return state
  return { ...state, ...thread, below: state.below.slice(0, index) }
}

/**
 * Whose turn a turn start is, while a parent's history is replayed. A copied history ends where
 * the thread's own first turn starts. Turn ids are UUIDv7, so a turn belongs to the newest thread
 * created at or before it: the file's own thread for its own turns, the parent for the parent's
 * (which all predate the fork), a grandparent for a copy inside the copy. Without comparable ids,
 * the first turn start ends every copy, which errs towards the file's own thread.
 */
function threadOfTurn(state: CodexState, type: string, payload: JsonObject): CodexState {
  const turnStart =
    type === 'event_msg' && (payload.type === 'task_started' || payload.type === 'turn_started')
  if (!turnStart && type !== 'turn_context') return state
  const own = ownSessionId(state)
  const turn = text(payload.turn_id)
  if (own === null || turn === null || !isUuidV7(own) || !isUuidV7(turn)) {
    return turnStart ? returnTo(state, 0) : state
  }
  const at = uuidTime(turn)
  for (let index = 0; index < state.below.length; index++) {
    const id = state.below[index]?.sessionId ?? null
    if (id !== null && isUuidV7(id) && uuidTime(id) <= at) return returnTo(state, index)
  }
  return state
}

/**
 * How a state from an older sangam, which skipped copied history, finds where the copy ends: at
 * the thread's own first turn (see `threadOfTurn`), or at a resume of the thread itself.
 */
function endsForkHistory(state: CodexState, type: string, payload: JsonObject): boolean {
  if (type === 'session_meta')
    return threadId(text(payload.id) ?? text(payload.session_id)) === state.sessionId
  const turnStart =
    type === 'event_msg' && (payload.type === 'task_started' || payload.type === 'turn_started')
  if (!turnStart && type !== 'turn_context') return false
  const own = state.sessionId
  const turn = text(payload.turn_id)
  if (own !== null && turn !== null && isUuidV7(own) && isUuidV7(turn)) return uuidTime(turn) >= uuidTime(own)
  return turnStart
}

/**
 * A line of a pre-envelope rollout (formats.md B2.12): the header (`id`, `timestamp`,
 * `instructions`, `git`), `{"record_type":"state"}` markers, and bare response items.
 */
function readLegacy(state: CodexState, record: JsonObject): Step {
  if (typeof record.record_type === 'string') return skip(state, 'metadata')
  const type = record.type
  if (type === undefined && text(record.id) !== null) {
    if (state.sessionId !== null) return skip(state, 'metadata')
    const cwd = field(text(record.cwd))
    return skip(
      {
        ...state,
        sessionId: threadId(text(record.id)),
        cliVersion: field(text(record.cli_version)) ?? state.cliVersion,
        branch: field(text(objectOr(record.git)?.branch)) ?? state.branch,
        cwd: state.cwd ?? cwd,
        firstCwd: state.firstCwd ?? cwd,
      },
      'metadata',
    )
  }
  const step = typeof type === 'string' ? readResponseItem(state, record) : null
  return step ?? unknown(state, typeName(type), signatureOf(record))
}

function eventRecordType(payload: JsonObject): string {
  const type = typeName(payload.type)
  const item = objectOr(payload.item)
  return type === 'item_completed' && item !== null
    ? `event_msg/${type}/${typeName(item.type)}`
    : `event_msg/${type}`
}

function typeName(value: unknown): string {
  return typeof value === 'string' ? value : `(${valueKind(value)})`
}

function valueKind(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'none'
  return Array.isArray(value) ? 'array' : typeof value
}
