import { quoteInput } from './quote-input.ts'
import { ErrorCode, SangamError } from './sangam-error.ts'

/** Capture and recall look at the last 14 days unless `--since` says otherwise. */
export const defaultWindowDays = 14

const dayMs = 24 * 60 * 60 * 1000
const maxDateMs = 8.64e15
const relative = /^(\d+)\s*([dhm])$/i
const isoDate = /^(\d{4})-(\d{2})-(\d{2})([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/

/**
 * Turns `--since` into a start time in ms: `Nd`, `Nh` or `Nm` count back from `now`; an ISO date or
 * date-time is taken as given (a bare date is midnight UTC), if it is a real calendar date (the
 * engine would read 2026-02-30 as March 2nd). Absent means the default window. `name` is what a
 * refusal calls the value (`--until` parses the same way).
 */
export function parseSince(text: string | undefined, now: number, name = '--since'): number {
  if (text === undefined) return now - defaultWindowDays * dayMs
  const trimmed = text.trim()
  const rel = relative.exec(trimmed)
  if (rel !== null) {
    const amount = Number(rel[1])
    const unit = (rel[2] ?? 'd').toLowerCase()
    const unitMs = unit === 'd' ? dayMs : unit === 'h' ? 60 * 60 * 1000 : 60 * 1000
    // Further back than a Date can say (10^8 days) is not a window; it falls through to the refusal.
    if (amount * unitMs <= maxDateMs) return now - amount * unitMs
  }
  const date = isoDate.exec(trimmed)
  if (date && isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]))) {
    const at = Date.parse(trimmed.length === 10 ? `${trimmed}T00:00:00Z` : trimmed)
    if (!Number.isNaN(at)) return at
  }
  throw new SangamError(
    ErrorCode.InvalidInput,
    `${name} must be an ISO date (2026-11-01, 2026-11-01T09:30:00Z) or a count back like 14d, 12h, 30m; got ${quoteInput(text)}`,
  )
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth
}
