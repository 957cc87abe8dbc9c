import { z } from 'zod'
import { defaultSyncLimits, type SyncLimits } from '../../src/protocol/sync/limits.ts'
import type { Env } from './env.ts'

const positiveInteger = z.coerce.number().int().positive()

/**
 * Reads the limits from the Worker's vars once per isolate. A malformed value is a deploy mistake:
 * it fails every request loudly (naming the var) rather than running with a limit nobody chose.
 */
export function readLimits(env: Env): SyncLimits {
  return Object.freeze({
    maxBodyBytes: parseVar('MAX_BODY_BYTES', env.MAX_BODY_BYTES, defaultSyncLimits.maxBodyBytes),
    maxRecordsPerPush: parseVar(
      'MAX_RECORDS_PER_PUSH',
      env.MAX_RECORDS_PER_PUSH,
      defaultSyncLimits.maxRecordsPerPush,
    ),
    pushesPerSecond: parseVar('PUSHES_PER_SECOND', env.PUSHES_PER_SECOND, defaultSyncLimits.pushesPerSecond),
    maxPullLimit: defaultSyncLimits.maxPullLimit,
  })
}

function parseVar(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const parsed = positiveInteger.safeParse(value)
  if (!parsed.success) throw new Error(`the Worker var ${name} must be a positive integer, not "${value}"`)
  return parsed.data
}
