import { readFileSync } from 'node:fs'
import { isAlive } from '../shared/process-alive.ts'

/** What the discovery file of a running daemon says. */
export interface DaemonInfo {
  readonly pid: number
  readonly version: string
  /** ISO-8601 UTC. */
  readonly startedAt: string
}

/** The daemon that runs for this file's project, or null (no file, an unreadable one, or a dead pid). */
export function runningDaemon(file: string): DaemonInfo | null {
  const info = readDaemonInfo(file)
  return info && isAlive(info.pid) ? info : null
}

/**
 * The file's content, or null when it is missing, torn or of another shape. Parsed by hand, not
 * with zod: the SessionStart hook reads it through the brief and loads as little as it can.
 */
export function readDaemonInfo(file: string): DaemonInfo | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const { pid, version, startedAt } = value as Record<string, unknown>
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null
  if (typeof version !== 'string' || typeof startedAt !== 'string') return null
  return { pid, version, startedAt }
}
