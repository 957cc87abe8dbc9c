import { formatDuration } from '../duration.ts'
import { shortSession } from '../session-id.ts'

/** How long ago, as a person says it: `just now`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function describeAge(at: number, now: number): string {
  const elapsed = now - at
  return elapsed < 60_000 ? 'just now' : `${formatDuration(elapsed)} ago`
}

export interface SessionSummary {
  readonly id: string
  readonly vendor: string
  readonly author: string
  readonly cliVersion: string | null
  readonly branch: string | null
  readonly lastAt: number
}

/** `claude 2.1.0 · asha@x.dev · feat/leases · 5 min ago · session 1a2b3c4d (you)` */
export function sessionLine(session: SessionSummary, now: number, readerSession: string | null): string {
  const cli = session.cliVersion === null ? session.vendor : `${session.vendor} ${session.cliVersion}`
  const branch = session.branch === null || session.branch === '' ? '' : ` · ${session.branch}`
  const you = session.id === readerSession ? ' (you)' : ''
  return `${cli} · ${session.author}${branch} · ${describeAge(session.lastAt, now)} · session ${shortSession(session.id)}${you}`
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
