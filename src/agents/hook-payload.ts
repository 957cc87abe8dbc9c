import { isRecord } from '../shared/is-record.ts'
/**
 * The JSON object Claude Code and Codex write on a command hook's stdin, narrowed at the edge with
 * plain type guards (no zod: this runs on every edit and every import costs start-up time).
 * Both hosts share the field names; Codex adds `turn_id` and `model`, Claude `prompt_id`.
 */
export interface HookPayload {
  /** `hook_event_name` as the host sent it: `SessionStart`, `PreToolUse`, `SessionEnd`. */
  readonly eventName: string
  readonly sessionId: string
  /** The session's working directory; it follows the agent into worktrees. */
  readonly cwd: string | null
  readonly transcriptPath: string | null
  readonly toolName: string | null
  readonly toolInput: Readonly<Record<string, unknown>> | null
  /** Stop: true when the turn goes on because a Stop hook already blocked it once. */
  readonly stopHookActive: boolean
}

/** Parses hook stdin; null when it is not a JSON object with a session id and an event name. */
export function parseHookPayload(text: string): HookPayload | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (!isRecord(value)) return null
  const eventName = stringField(value, 'hook_event_name')
  const sessionId = stringField(value, 'session_id')
  if (eventName === null || sessionId === null) return null
  const toolInput = value.tool_input
  return {
    eventName,
    sessionId,
    cwd: stringField(value, 'cwd'),
    transcriptPath: stringField(value, 'transcript_path'),
    toolName: stringField(value, 'tool_name'),
    toolInput: isRecord(toolInput) ? toolInput : null,
    stopHookActive: value.stop_hook_active === true,
  }
}

/** A non-empty string field, else null. */
export function stringField(record: Readonly<Record<string, unknown>>, key: string): string | null {
  const value = record[key]
  return typeof value === 'string' && value !== '' ? value : null
}
