import { z } from 'zod'
import { defaultSyncLimits, type SyncLimits } from '../../src/sync/protocol/limits.ts'
import { projectIdSchema } from '../../src/sync/protocol/project.ts'
import type { Vars } from './env.ts'

const positiveInteger = z.coerce.number().int().positive()
const nonNegativeInteger = z.coerce.number().int().nonnegative()

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
  /** Bytes of storage one project may hold (its SQLite database); a push past it is refused. */
  readonly maxProjectBytes: number
  /**
   * Days, from the registrar's first start, during which a project id the registrar does not know
   * still reaches its object and is adopted when the right key opens it (projects created before
   * the registrar kept ids). 0: unknown ids are refused outright.
   */
  readonly adoptUnregisteredDays: number
}

export const defaultServerLimits = Object.freeze({
  projectPushesPerSecond: 200,
  projectsPerHourPerAddress: 20,
  projectsPerHour: 200,
  maxSocketsPerProject: 256,
  maxProjectBytes: 1024 ** 3,
  adoptUnregisteredDays: 30,
})

/**
 * Reads the limits from the Worker's vars once per isolate. A malformed value is a deploy mistake:
 * it fails every request loudly (naming the var) rather than running with a limit nobody chose.
 */
export function readLimits(env: Vars): ServerLimits {
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
    maxProjectBytes: parseVar(
      'MAX_PROJECT_BYTES',
      env.MAX_PROJECT_BYTES,
      defaultServerLimits.maxProjectBytes,
    ),
    adoptUnregisteredDays: parseVar(
      'ADOPT_UNREGISTERED_DAYS',
      env.ADOPT_UNREGISTERED_DAYS,
      defaultServerLimits.adoptUnregisteredDays,
      nonNegativeInteger,
    ),
  })
}

function parseVar(
  name: string,
  value: string | undefined,
  fallback: number,
  schema: z.ZodType<number> = positiveInteger,
): number {
  if (value === undefined || value.trim() === '') return fallback
  const parsed = schema.safeParse(value)
  const kind = schema === positiveInteger ? 'a positive integer' : 'a whole number'
  if (!parsed.success) throw new Error(`the Worker var ${name} must be ${kind}, not "${value}"`)
  return parsed.data
}

/**
 * The project ids `sangam serve` found in its data dir at start (`REGISTERED_PROJECTS`): the
 * registrar registers them, so projects created before it kept ids open as before. A value that
 * is not a list of project ids is a bug of serve's and fails loudly, as a malformed limit does.
 */
export function readRegisteredProjects(env: Vars): readonly string[] {
  if (env.REGISTERED_PROJECTS === undefined || env.REGISTERED_PROJECTS.trim() === '') return []
  let value: unknown
  try {
    value = JSON.parse(env.REGISTERED_PROJECTS)
  } catch {
    value = null
  }
  const parsed = z.array(projectIdSchema).safeParse(value)
  if (!parsed.success)
    throw new Error('the Worker var REGISTERED_PROJECTS must be a JSON array of project ids')
  return parsed.data
}
