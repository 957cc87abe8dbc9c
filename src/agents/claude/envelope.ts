import type { ReadEvent } from '../transcript-reader.ts'
import type { ClaudeState } from './claude-state.ts'
import type { JsonObject } from './json-object.ts'

export { isJsonObject, type JsonObject } from './json-object.ts'

/** The attribution every event of one record shares (formats.md B1.2). */
export interface Envelope {
  readonly at: number
  readonly sessionId: string
  readonly cliVersion: string | null
  readonly cwd: string | null
  readonly branch: string | null
  /**
   * The history the record belongs to, when it is not the session's own: a subagent's transcript
   * carries the parent's `sessionId` and its own `agentId`, and numbers its events apart.
   */
  readonly thread: string | undefined
}

/**
 * Reads the envelope of a record and folds it into the state. Metadata records (queue operations,
 * titles, snapshots) carry no `cwd`, `version` or `gitBranch`, and some no `timestamp`: they take
 * the latest values seen in the file.
 */
export function readEnvelope(
  state: ClaudeState,
  record: JsonObject,
): { state: ClaudeState; envelope: Envelope } {
  const sessionId = stringField(record.sessionId) ?? stringField(record.session_id) ?? state.sessionId
  const cliVersion = stringField(record.version) ?? state.cliVersion
  const cwd = stringField(record.cwd) ?? state.cwd
  const branch = typeof record.gitBranch === 'string' ? record.gitBranch || null : state.branch
  const at = timeOf(record.timestamp) ?? state.lastAt
  const firstCwd = state.firstCwd ?? cwd
  // Spelled out rather than spread: this runs for every record and a spread copy is several times slower.
  const next: ClaudeState = {
    v: 1,
    sessionId,
    cliVersion,
    firstCwd,
    cwd,
    branch,
    lastAt: at,
    tools: state.tools,
    queued: state.queued,
  }
  const agentId = record.isSidechain === true ? stringField(record.agentId) : null
  const session = sessionId ?? ''
  const thread = agentId === null ? undefined : `${session}/${agentId}`
  return { state: next, envelope: { at, sessionId: session, cliVersion, cwd, branch, thread } }
}

export function makeEvent(
  envelope: Envelope,
  kind: ReadEvent['kind'],
  text: string,
  extra?: { toolName?: string | null; callId?: string | null; joinKey?: string | null },
): ReadEvent {
  const event: ReadEvent = {
    kind,
    at: envelope.at,
    sessionId: envelope.sessionId,
    cliVersion: envelope.cliVersion,
    cwd: envelope.cwd,
    branch: envelope.branch,
    text,
    toolName: extra?.toolName ?? null,
    callId: extra?.callId ?? null,
    joinKey: extra?.joinKey ?? null,
  }
  return envelope.thread === undefined ? event : { ...event, thread: envelope.thread }
}

/** A non-empty string field, else null (ids and names of `""` say nothing). */
export function stringField(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : null
}
