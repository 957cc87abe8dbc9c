import { ErrorCode, SangamError } from './sangam-error.ts'

/** Throws an internal error when an invariant does not hold. The message says what broke. */
export function assert(condition: unknown, message: string | (() => string)): asserts condition {
  if (condition) return
  throw new SangamError(ErrorCode.Internal, typeof message === 'string' ? message : message())
}

/** Returns `value`, or throws an internal error naming what was missing. */
export function must<T>(value: T | null | undefined, message?: string): T {
  if (value === null || value === undefined) {
    throw new SangamError(ErrorCode.Internal, message ?? `unexpected ${String(value)} value`)
  }
  return value
}
