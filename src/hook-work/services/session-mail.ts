import { isRecord } from '../../shared/is-record.ts'
import type { WorkSession } from './kept-work.ts'
import {
  claimEntry,
  finishEntry,
  type JournalEntry,
  type JournalType,
  putBack,
  readEntry,
  sessionKey,
} from './work-journal.ts'

/**
 * What the journal holds for one session and only its own hook can give it: notices (an auto-lease
 * recorded late that met someone else's lease) and a brief its start owed it. The hook claims them
 * before it answers; `settle` removes them once the answer carrying them was written, and puts
 * them back when it was not (the watchdog's answer went instead), so each reaches the session once.
 */
export interface SessionMail {
  /** The notices' texts, oldest first. */
  readonly notices: readonly string[]
  /** Whether a brief is owed (claimed: the caller gives it now). */
  readonly briefOwed: boolean
  /**
   * Once the answer was written (`delivered`) or not; `briefGiven` says whether it carried the
   * owed brief (it may have failed to assemble: then the brief waits for the next prompt).
   */
  settle(delivered: boolean, briefGiven: boolean): void
}

export interface MailOptions {
  readonly dir: string
  /** The journal as the hook listed it (`journalEntries`). */
  readonly entries: readonly JournalEntry[]
  readonly session: WorkSession
  readonly pid: number
  /** Claim owed briefs too: only a prompt gives one. */
  readonly withBrief: boolean
}

/** Claims the session's mail; null when there is none. */
export function claimSessionMail(options: MailOptions): SessionMail | null {
  const key = sessionKey(options.session)
  const wanted = (type: JournalType): JournalEntry[] =>
    options.entries.filter((entry) => entry.type === type && entry.key === key && entry.claimedBy === null)
  const texts: string[] = []
  const notices = claimAll(options, wanted('notice')).filter((name) => {
    const text = noticeText(readEntry(options.dir, name), options.session)
    if (text !== null) texts.push(text)
    // Another session whose id differs only where file names cannot tell: its notice waits.
    else putBackQuietly(options.dir, name)
    return text !== null
  })
  const briefs = options.withBrief ? claimAll(options, wanted('brief')) : []
  if (notices.length === 0 && briefs.length === 0) return null
  return {
    notices: texts,
    briefOwed: briefs.length > 0,
    settle: (delivered, briefGiven) => {
      for (const name of notices) settleEntry(options.dir, name, delivered)
      for (const name of briefs) settleEntry(options.dir, name, delivered && briefGiven)
    },
  }
}

/**
 * Owed briefs the session no longer needs: a new start gave it a brief, or it ended. Claimed and
 * removed at once.
 */
export function dropOwedBriefs(options: Omit<MailOptions, 'withBrief'>): void {
  const key = sessionKey(options.session)
  const owed = options.entries.filter((entry) => entry.type === 'brief' && entry.key === key)
  for (const name of claimAll(options, owed)) finishEntry(options.dir, name)
}

function claimAll(options: Pick<MailOptions, 'dir' | 'pid'>, entries: readonly JournalEntry[]): string[] {
  return entries.flatMap((entry) => {
    const claimed = claimEntry(options.dir, entry, options.pid)
    return claimed === null ? [] : [claimed]
  })
}

/** A notice's text, when it is one for this very session (file names only carry a safe form). */
function noticeText(value: unknown, session: WorkSession): string | null {
  if (!isRecord(value) || typeof value.text !== 'string' || !isRecord(value.session)) return null
  const { vendor, sessionId } = value.session
  return vendor === session.vendor && sessionId === session.sessionId ? value.text : null
}

function settleEntry(dir: string, name: string, done: boolean): void {
  if (done) finishEntry(dir, name)
  else putBackQuietly(dir, name)
}

function putBackQuietly(dir: string, name: string): void {
  try {
    putBack(dir, name)
  } catch {
    // Gone: another process finished it.
  }
}
