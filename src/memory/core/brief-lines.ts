import { shortSession } from '../../identity/core/session-id.ts'
import { formatDuration } from '../../shared/duration.ts'

/**
 * How long ago, as a person says it: `just now`, `5 min ago`, `3 h ago`, `2 d ago`. A time ahead
 * of `now` (another machine's clock) says so rather than passing for `just now`; an unknown time
 * says `at an unknown time`.
 */
export function describeAge(at: number, now: number): string {
  if (!Number.isFinite(at)) return 'at an unknown time'
  const elapsed = now - at
  if (elapsed <= -60_000) return `${formatDuration(-elapsed)} in the future (a clock is off)`
  return elapsed < 60_000 ? 'just now' : `${formatDuration(elapsed)} ago`
}

export interface SessionSummary {
  readonly id: string
  readonly vendor: string
  readonly author: string
  readonly cliVersion: string | null
  readonly branch: string | null
  readonly lastAt: number
  /** Its events in the period the brief covers. */
  readonly events: number
  /** Its latest human turn; null for none. */
  readonly lastHuman: string | null
}

/**
 * `claude 2.1.0 · asha@x.dev · feat/leases · 12 events, last 5 min ago · session 1a2b3c4d (you) ·
 * last asked: "fix the parser"`: the prompt last, where the line's cut falls.
 */
export function sessionLine(session: SessionSummary, now: number, readerSession: string | null): string {
  const cli = session.cliVersion === null ? session.vendor : `${session.vendor} ${session.cliVersion}`
  const branch = session.branch === null || session.branch === '' ? '' : ` · ${session.branch}`
  const you = session.id === readerSession ? ' (you)' : ''
  const events = `${session.events} event${session.events === 1 ? '' : 's'}, last ${describeAge(session.lastAt, now)}`
  const asked = session.lastHuman === null ? '' : ` · last asked: "${oneLine(session.lastHuman, 80)}"`
  return `${cli} · ${session.author}${branch} · ${events} · session ${shortSession(session.id)}${you}${asked}`
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

export interface CommitSummary {
  readonly shortId: string
  readonly author: string
  readonly at: number
  readonly subject: string
}

/** `a1b2c3d Fix the parser (asha, 3 h ago)` */
export function commitLine(commit: CommitSummary, now: number): string {
  return `${commit.shortId} ${commit.subject} (${commit.author}, ${describeAge(commit.at, now)})`
}

export interface NoteSummary {
  readonly author: string
  readonly at: number
  readonly text: string
}

/** `asha@x.dev, 2 h ago: Decided …` */
export function noteLine(note: NoteSummary, now: number): string {
  return `${note.author}, ${describeAge(note.at, now)}: ${note.text}`
}
