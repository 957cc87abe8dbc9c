import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { claudeWakeDir, claudeWakeFile } from '../../../config/data-paths.ts'
import { isRecord } from '../../../shared/is-record.ts'

/**
 * What a Claude Code session's wake waiter (agents/claude/hooks/claude-wake-waiter.ts) leaves for delivery, one
 * small file per session in the project's data directory, `claude-wake/<session>.json` (D371):
 * where it waits (`waiting`: its socket, its pid and start, the Claude Code process it serves), or
 * why it does not (`unsupported`: a print session, a version not verified). A file, not a table:
 * the waiter then never loads SQLite, and it lives as long as the session is open. Replaced
 * atomically (a temporary file and a rename); a waiter removes only the file that still names it.
 */
export interface ClaudeWakeRecord {
  readonly sessionId: string
  readonly state: 'waiting' | 'unsupported'
  /** Why it does not wait (`unsupported`), else null. */
  readonly why: string | null
  /** The Claude Code version its environment gave, or null. */
  readonly version: string | null
  readonly waiterPid: number | null
  /** The waiter's start (process-identity.ts), so a reused pid is never taken for it. */
  readonly waiterStart: string | null
  /** The Claude Code process that ran the hook (the waiter's parent). */
  readonly claudePid: number | null
  /** The waiter's Unix socket (0600, in a 0700 directory). */
  readonly socket: string | null
  /** ms epoch. */
  readonly at: number
}

/** Claude Code's session ids are UUIDs; anything that could leave the directory is refused. */
export function isSafeSessionId(sessionId: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(sessionId)
}

export function writeClaudeWakeRecord(projectDir: string, record: ClaudeWakeRecord, pid: number): void {
  const file = claudeWakeFile(projectDir, record.sessionId)
  const temporary = `${file}.${pid}.tmp`
  const text = `${JSON.stringify(record)}\n`
  try {
    writeFileSync(temporary, text, { mode: 0o600 })
  } catch {
    mkdirSync(claudeWakeDir(projectDir), { recursive: true, mode: 0o700 })
    writeFileSync(temporary, text, { mode: 0o600 })
  }
  renameSync(temporary, file)
}

/** The session's record, or null when there is none (or it cannot be read as one). */
export function readClaudeWakeRecord(projectDir: string, sessionId: string): ClaudeWakeRecord | null {
  if (!isSafeSessionId(sessionId)) return null
  try {
    const value: unknown = JSON.parse(readFileSync(claudeWakeFile(projectDir, sessionId), 'utf8'))
    return isRecord(value) ? recordOf(value, sessionId) : null
  } catch {
    return null
  }
}

/** Removes the session's record if it is still the one written by `waiterPid` (another may have replaced it). */
export function forgetClaudeWakeRecord(projectDir: string, sessionId: string, waiterPid: number): void {
  const record = readClaudeWakeRecord(projectDir, sessionId)
  if (record !== null && record.waiterPid === waiterPid)
    rmSync(claudeWakeFile(projectDir, sessionId), { force: true })
}

function recordOf(value: Readonly<Record<string, unknown>>, sessionId: string): ClaudeWakeRecord | null {
  if (value.sessionId !== sessionId) return null
  if (value.state !== 'waiting' && value.state !== 'unsupported') return null
  if (typeof value.at !== 'number') return null
  return {
    sessionId,
    state: value.state,
    why: textOrNull(value.why),
    version: textOrNull(value.version),
    waiterPid: pidOrNull(value.waiterPid),
    waiterStart: textOrNull(value.waiterStart),
    claudePid: pidOrNull(value.claudePid),
    socket: textOrNull(value.socket),
    at: value.at,
  }
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function pidOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null
}
