import { z } from 'zod'
import { defaultSyncLimits, type SyncLimits } from '../../src/protocol/sync/limits.ts'
import type { Env } from './env.ts'

const positiveInteger = z.coerce.number().int().positive()

/**
 * What the server enforces beyond what it advertises: the protocol's limits (on `GET /v1/health`,
 * which clients size their batches to) and the ones that only protect the server, which a
 * well-behaved client never meets.
 */
export interface ServerLimits {
  readonly sync: SyncLimits
  /** Pushes per second of a whole project, every pusher together. */
  readonly projectPushesPerSecond: number
  /** Project creations an hour from one client address (the burst is the same number). */
  readonly projectsPerHourPerAddress: number
  /** Project creations an hour on the whole server. */
  readonly projectsPerHour: number
  /** Open WebSockets per project; one more is refused. */
  readonly maxSocketsPerProject: number
}

export const defaultServerLimits = Object.freeze({
  projectPushesPerSecond: 200,
  projectsPerHourPerAddress: 20,
  projectsPerHour: 200,
  maxSocketsPerProject: 256,
})

/**
 * Reads the limits from the Worker's vars once per isolate. A malformed value is a deploy mistake:
 * it fails every request loudly (naming the var) rather than running with a limit nobody chose.
 */
export function readLimits(env: Env): ServerLimits {
  const sync: SyncLimits = Object.freeze({
    maxBodyBytes: parseVar('MAX_BODY_BYTES', env.MAX_BODY_BYTES, defaultSyncLimits.maxBodyBytes),
    maxRecordsPerPush: parseVar(
      'MAX_RECORDS_PER_PUSH',
      env.MAX_RECORDS_PER_PUSH,
      defaultSyncLimits.maxRecordsPerPush,
    ),
    pushesPerSecond: parseVar('PUSHES_PER_SECOND', env.PUSHES_PER_SECOND, defaultSyncLimits.pushesPerSecond),
    maxPullLimit: defaultSyncLimits.maxPullLimit,
  })
  return Object.freeze({
    sync,
    projectPushesPerSecond: parseVar(
      'PROJECT_PUSHES_PER_SECOND',
      env.PROJECT_PUSHES_PER_SECOND,
      defaultServerLimits.projectPushesPerSecond,
    ),
    projectsPerHourPerAddress: parseVar(
      'PROJECTS_PER_HOUR_PER_ADDRESS',
      env.PROJECTS_PER_HOUR_PER_ADDRESS,
      defaultServerLimits.projectsPerHourPerAddress,
    ),
    projectsPerHour: parseVar(
      'PROJECTS_PER_HOUR',
      env.PROJECTS_PER_HOUR,
      defaultServerLimits.projectsPerHour,
    ),
    maxSocketsPerProject: parseVar(
      'MAX_SOCKETS_PER_PROJECT',
      env.MAX_SOCKETS_PER_PROJECT,
      defaultServerLimits.maxSocketsPerProject,
    ),
  })
}

function parseVar(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const parsed = positiveInteger.safeParse(value)
  if (!parsed.success) throw new Error(`the Worker var ${name} must be a positive integer, not "${value}"`)
  return parsed.data
}
