import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/** Capture and recall look at the last 14 days unless `--since` says otherwise. */
export const defaultWindowDays = 14

const dayMs = 24 * 60 * 60 * 1000
const relative = /^(\d+)\s*([dhm])$/i
const isoDate = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/

/**
 * Turns `--since` into a start time in ms: `Nd`, `Nh` or `Nm` count back from `now`; an ISO date or
 * date-time is taken as given (a bare date is midnight UTC). Absent means the default window.
 */
export function parseSince(text: string | undefined, now: number): number {
  if (text === undefined) return now - defaultWindowDays * dayMs
  const trimmed = text.trim()
  const rel = relative.exec(trimmed)
  if (rel) {
    const amount = Number(rel[1])
    const unit = (rel[2] ?? 'd').toLowerCase()
    const unitMs = unit === 'd' ? dayMs : unit === 'h' ? 60 * 60 * 1000 : 60 * 1000
    return now - amount * unitMs
  }
  if (isoDate.test(trimmed)) {
    const at = Date.parse(trimmed.length === 10 ? `${trimmed}T00:00:00Z` : trimmed)
    if (!Number.isNaN(at)) return at
  }
  throw new SangamError(
    ErrorCode.InvalidInput,
    `--since must be an ISO date (2026-11-01, 2026-11-01T09:30:00Z) or a count back like 14d, 12h, 30m; got "${text}"`,
  )
}
