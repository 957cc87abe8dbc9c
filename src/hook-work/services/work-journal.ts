import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { KeptWork, WorkSession } from './kept-work.ts'

/**
 * The journal of hook work kept for afterwards: a directory of small JSON files in the project's
 * data directory (`config/data-paths.ts` `hookWorkDir`), beside the store rather than in it,
 * because a store locked past the hook's budget is one of the failures it covers.
 *
 * - `work.<vendor>.<session>.<stamp>.json`: a step the daemon or any later hook does (`work-drain.ts`);
 * - `brief.<vendor>.<session>.<stamp>.json`: a session brief owed to that session's next prompt;
 * - `notice.<vendor>.<session>.<stamp>.json`: a note the session's next hook carries to it (an
 *   auto-lease recorded late that met someone else's lease).
 *
 * Every file is written whole under a temporary name and renamed into place, so a reader never
 * sees half of one and a process killed mid-write leaves at most a `.tmp`. Whoever does a step
 * first claims its file by renaming it to `<name>.claimed-<pid>`: rename is atomic, so of two
 * drainers (the daemon and a hook, or two hooks) exactly one gets it. A claim whose process is
 * gone is put back for the next drainer. The stamp (`<ms epoch>-<pid>-<n>`, zero-padded) orders
 * files by the time their hook ran, then as that hook wrote them, and makes names unique on the
 * machine.
 */
export type JournalType = 'work' | 'brief' | 'notice'

export interface JournalEntry {
  /** The file name as it is now (claimed or not). */
  readonly name: string
  readonly type: JournalType
  /** `<vendor>.<session>` as written in names (`sessionKey`). */
  readonly key: string
  readonly stamp: string
  /** The pid holding the claim, or null when the file waits. */
  readonly claimedBy: number | null
}

/** A note for one session, carried to it by its next hook. */
export interface SessionNotice {
  readonly session: WorkSession
  readonly at: number
  readonly text: string
}

let sequence = 0

const namePattern =
  /^(work|brief|notice)\.([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\.(\d{15}-\d+-\d+)\.json(?:\.claimed-(\d+))?$/

/** Every entry of the journal, oldest first; none when it does not exist. The look every hook takes. */
export function journalEntries(dir: string): JournalEntry[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const entries: JournalEntry[] = []
  for (const name of names) {
    const match = namePattern.exec(name)
    if (match === null) continue
    const [, type, key, stamp, claimedBy] = match
    if (type === undefined || key === undefined || stamp === undefined) continue
    entries.push({
      name,
      type: type as JournalType,
      key,
      stamp,
      claimedBy: claimedBy === undefined ? null : Number(claimedBy),
    })
  }
  return entries.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : 0))
}

/** How a session is named in journal files: vendor and session id, made safe for a file name. */
export function sessionKey(session: Pick<WorkSession, 'vendor' | 'sessionId'>): string {
  return `${session.vendor}.${session.sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}`
}

/** Writes a kept step into the journal; returns its file name. Throws when it cannot be written. */
export function keepWork(dir: string, work: KeptWork, pid: number): string {
  return writeEntry(dir, work.step.kind === 'brief' ? 'brief' : 'work', work.session, work.at, pid, work)
}

/** Leaves a note for a session's next hook; returns its file name. */
export function leaveNotice(dir: string, notice: SessionNotice, pid: number): string {
  return writeEntry(dir, 'notice', notice.session, notice.at, pid, notice)
}

/**
 * Claims a waiting entry for this process: its new name, or null when another process claimed it
 * first (or it is gone).
 */
export function claimEntry(dir: string, entry: JournalEntry, pid: number): string | null {
  if (entry.claimedBy !== null) return null
  const claimed = `${entry.name}.claimed-${pid}`
  try {
    renameSync(join(dir, entry.name), join(dir, claimed))
    return claimed
  } catch {
    return null
  }
}

/** The JSON of a claimed entry; null when it cannot be read or parsed. */
export function readEntry(dir: string, name: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dir, name), 'utf8'))
  } catch {
    return null
  }
}

/** Done (or dropped): the claimed file goes. */
export function finishEntry(dir: string, claimed: string): void {
  try {
    unlinkSync(join(dir, claimed))
  } catch {
    // Already gone: nothing is left to do twice.
  }
}

/**
 * Not done: the entry waits again under its own name, rewritten with `content` when given (an
 * attempt counted, a later time to try).
 */
export function putBack(dir: string, claimed: string, content?: KeptWork): void {
  const waiting = claimed.replace(/\.claimed-\d+$/, '')
  if (content === undefined) {
    renameSync(join(dir, claimed), join(dir, waiting))
    return
  }
  writeAtomically(dir, waiting, content)
  finishEntry(dir, claimed)
}

/** Claims of processes that are gone (a hook ended by its watchdog mid-drain) wait again. */
export function releaseAbandonedClaims(
  dir: string,
  entries: readonly JournalEntry[],
  isAlive: (pid: number) => boolean,
): void {
  for (const entry of entries) {
    if (entry.claimedBy === null || isAlive(entry.claimedBy)) continue
    try {
      putBack(dir, entry.name)
    } catch {
      // Another drainer put it back first.
    }
  }
}

function writeEntry(
  dir: string,
  type: JournalType,
  session: WorkSession,
  at: number,
  pid: number,
  content: unknown,
): string {
  sequence += 1
  const stamp = [
    String(Math.max(0, Math.trunc(at))).padStart(15, '0'),
    String(pid).padStart(10, '0'),
    String(sequence).padStart(6, '0'),
  ].join('-')
  const name = `${type}.${sessionKey(session)}.${stamp}.json`
  writeAtomically(dir, name, content)
  return name
}

function writeAtomically(dir: string, name: string, content: unknown): void {
  // Unique already: a new name holds its writer's pid, and only a claim's holder rewrites one.
  const temporary = join(dir, `${name}.tmp`)
  const text = `${JSON.stringify(content)}\n`
  try {
    writeFileSync(temporary, text, { mode: 0o600 })
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(temporary, text, { mode: 0o600 })
  }
  renameSync(temporary, join(dir, name))
}
