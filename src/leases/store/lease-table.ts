import { type Random, systemRandom } from '../../shared/random.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import { isSqliteBusy } from '../../store/sqlite-error-code.ts'
import { patternKey } from '../core/pattern.ts'
import type {
  Actor,
  AgentVendor,
  Lease,
  LeaseKind,
  LeaseLogAction,
  LeaseLogEntry,
} from '../protocol/lease.ts'
import { compileLeasePattern, rememberCompiled } from './lease-regex.ts'

// lease       : live leases (expired rows linger until the next write purges them; readers filter).
//               An actor is stored as three columns; '' stands for "none" so UNIQUE can see it.
// lease_log   : what happened to leases, for the team: grants, releases, forced releases, collisions.
// lease_token : the project's last fencing token; it only grows, even when leases are deleted.
export const createLeaseTables = /*sql*/ `
  CREATE TABLE lease (
    token          INTEGER PRIMARY KEY,   -- fencing token, strictly increasing per project
    pattern        TEXT NOT NULL,         -- normalised repository-relative path or glob, case kept
    pattern_key    TEXT NOT NULL,         -- lower-cased pattern: leases compare case-insensitively
    holder_human   TEXT NOT NULL,
    holder_vendor  TEXT NOT NULL,         -- '' (a human from the CLI) | 'claude' | 'codex'
    holder_session TEXT NOT NULL,         -- '' when not a session or when the session is unidentified
    kind           TEXT NOT NULL CHECK (kind IN ('claim', 'auto')),
    reason         TEXT NOT NULL,
    taken_at       INTEGER NOT NULL,      -- ms epoch
    renewed_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,      -- live while expires_at > now
    UNIQUE (pattern_key, holder_human, holder_vendor, holder_session)
  );
  CREATE INDEX lease_by_session ON lease (holder_session);
  CREATE TABLE lease_log (
    id             INTEGER PRIMARY KEY,
    at             INTEGER NOT NULL,
    action         TEXT NOT NULL,         -- granted | renewed | released | force-released | session-ended | collision
    pattern        TEXT NOT NULL,
    token          INTEGER NOT NULL,
    holder_human   TEXT NOT NULL,
    holder_vendor  TEXT NOT NULL,
    holder_session TEXT NOT NULL,
    by_human       TEXT NOT NULL,
    by_vendor      TEXT NOT NULL,
    by_session     TEXT NOT NULL,
    reason         TEXT NOT NULL          -- the lease's reason; for force-released, the reason for forcing
  );
  CREATE INDEX lease_log_by_at ON lease_log (at);
  CREATE TABLE lease_token (
    lock INTEGER PRIMARY KEY DEFAULT 1 CHECK (lock = 1),
    last INTEGER NOT NULL
  );
  INSERT INTO lease_token (lock, last) VALUES (1, 0);`

// pattern_regex: the regular expression picomatch compiled pattern_key to when the row was written
// (leases/store/lease-regex.ts), so the edit hook need not load picomatch; NULL for a pattern naming one
// path, and in rows written before this column (those match through picomatch).
export const addLeasePatternRegex = /*sql*/ `ALTER TABLE lease ADD COLUMN pattern_regex TEXT;`

interface LeaseRow {
  readonly token: number
  readonly pattern: string
  readonly holder_human: string
  readonly holder_vendor: string
  readonly holder_session: string
  readonly kind: string
  readonly reason: string
  readonly taken_at: number
  readonly renewed_at: number
  readonly expires_at: number
  /** Absent in a replica the hook reads read-only before a writer migrated it. */
  readonly pattern_regex?: string | null
}

/**
 * The leases live at `now`, oldest grant first. Every column is read, so that a replica a newer
 * sangam has not yet migrated (the edit hook opens it read-only) still reads, without the
 * compiled patterns; those it has are handed to the matcher.
 */
export function readLeases(db: Db, now: number): Lease[] {
  const rows = db.prepare('SELECT * FROM lease WHERE expires_at > ? ORDER BY token').all(now) as LeaseRow[]
  return rows.map(toLease)
}

/** Inserts a lease, or replaces the holder's lease on the same pattern key (a renewal). */
export function upsertLease(db: Db, lease: Lease): void {
  const key = patternKey(lease.pattern)
  db.prepare(
    /*sql*/ `INSERT INTO lease (token, pattern, pattern_key, pattern_regex, holder_human, holder_vendor,
                                holder_session, kind, reason, taken_at, renewed_at, expires_at)
             VALUES (@token, @pattern, @patternKey, @patternRegex, @human, @vendor, @session, @kind, @reason,
                     @takenAt, @renewedAt, @expiresAt)
             ON CONFLICT (pattern_key, holder_human, holder_vendor, holder_session) DO UPDATE SET
               token = excluded.token, pattern = excluded.pattern, pattern_regex = excluded.pattern_regex,
               kind = excluded.kind, reason = excluded.reason, taken_at = excluded.taken_at,
               renewed_at = excluded.renewed_at, expires_at = excluded.expires_at`,
  ).run({
    token: lease.token,
    pattern: lease.pattern,
    patternKey: key,
    patternRegex: compileLeasePattern(key),
    ...actorColumns(lease.holder),
    kind: lease.kind,
    reason: lease.reason,
    takenAt: lease.takenAt,
    renewedAt: lease.renewedAt,
    expiresAt: lease.expiresAt,
  })
}

export function deleteLease(db: Db, token: number): void {
  db.prepare('DELETE FROM lease WHERE token = ?').run(token)
}

/** Deletes leases that expired at or before `now`; returns how many. */
export function deleteExpiredLeases(db: Db, now: number): number {
  return db.prepare('DELETE FROM lease WHERE expires_at <= ?').run(now).changes
}

export function readLastToken(db: Db): number {
  const row = db.prepare('SELECT last FROM lease_token WHERE lock = 1').get() as { last: number } | undefined
  return row?.last ?? 0
}

export function writeLastToken(db: Db, last: number): void {
  db.prepare('UPDATE lease_token SET last = ? WHERE lock = 1 AND last <= ?').run(last, last)
}

export function appendLeaseLog(db: Db, entry: LeaseLogEntry): void {
  const holder = actorColumns(entry.holder)
  const by = actorColumns(entry.by)
  db.prepare(
    /*sql*/ `INSERT INTO lease_log (at, action, pattern, token, holder_human, holder_vendor, holder_session,
                                    by_human, by_vendor, by_session, reason)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.at,
    entry.action,
    entry.pattern,
    entry.token,
    holder.human,
    holder.vendor,
    holder.session,
    by.human,
    by.vendor,
    by.session,
    entry.reason,
  )
}

/** Log entries at or after `since` with one of `actions`, newest first. */
export function readLeaseLog(
  db: Db,
  since: number,
  actions: readonly LeaseLogAction[],
  limit: number,
): LeaseLogEntry[] {
  const rows = db
    .prepare(
      /*sql*/ `SELECT at, action, pattern, token, holder_human, holder_vendor, holder_session, by_human, by_vendor,
                      by_session, reason
               FROM lease_log WHERE at >= ? AND action IN (SELECT value FROM json_each(?))
               ORDER BY at DESC, id DESC LIMIT ?`,
    )
    .all(since, JSON.stringify(actions), limit) as LogRow[]
  return rows.map((row) => ({
    at: row.at,
    action: row.action as LeaseLogAction,
    pattern: row.pattern,
    token: row.token,
    holder: toActor(row.holder_human, row.holder_vendor, row.holder_session),
    by: toActor(row.by_human, row.by_vendor, row.by_session),
    reason: row.reason,
  }))
}

interface LogRow {
  readonly at: number
  readonly action: string
  readonly pattern: string
  readonly token: number
  readonly holder_human: string
  readonly holder_vendor: string
  readonly holder_session: string
  readonly by_human: string
  readonly by_vendor: string
  readonly by_session: string
  readonly reason: string
}

/**
 * Runs `work` in one IMMEDIATE transaction: the write lock is taken before the first read, so what
 * `work` reads is what it decides on. Waits up to `budgetMs` for the lock, then throws SQLITE_BUSY.
 *
 * The wait is ours, not SQLite's busy handler: that one sleeps on a fixed schedule (1, 2, 5 … 100
 * ms), so claimers that collided once wake together and collide again, and 50 of them take
 * seconds to get through a lock each holds for a millisecond. Random ("full jitter") backoff
 * spreads them out. The wait is asynchronous, so a long-lived process keeps serving meanwhile.
 * `random` draws the jitter.
 */
export async function inLeaseTransaction<T>(
  db: Db,
  budgetMs: number,
  work: () => T,
  random: Pick<Random, 'fraction'> = systemRandom,
): Promise<T> {
  const deadline = performance.now() + budgetMs
  const transaction = db.transaction(work)
  const previous = db.pragma('busy_timeout', { simple: true }) as number
  db.pragma('busy_timeout = 0')
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        return transaction.immediate()
      } catch (error) {
        const left = deadline - performance.now()
        if (!isSqliteBusy(error) || left <= 0) throw error
        const ceiling = Math.min(maxBackoffMs, 2 ** Math.min(attempt, 10))
        await new Promise((resolve) => setTimeout(resolve, Math.min(left, random.fraction() * ceiling)))
      }
    }
  } finally {
    db.pragma(`busy_timeout = ${previous}`)
  }
}

/** The longest pause between two tries for the write lock. */
const maxBackoffMs = 50

function toLease(row: LeaseRow): Lease {
  if (typeof row.pattern_regex === 'string') rememberCompiled(patternKey(row.pattern), row.pattern_regex)
  return {
    pattern: row.pattern,
    holder: toActor(row.holder_human, row.holder_vendor, row.holder_session),
    kind: toKind(row.kind),
    reason: row.reason,
    token: row.token,
    takenAt: row.taken_at,
    renewedAt: row.renewed_at,
    expiresAt: row.expires_at,
  }
}

function actorColumns(actor: Actor): { human: string; vendor: string; session: string } {
  return { human: actor.human, vendor: actor.vendor ?? '', session: actor.sessionId ?? '' }
}

function toActor(human: string, vendor: string, session: string): Actor {
  return { human, vendor: toVendor(vendor), sessionId: session === '' ? null : session }
}

function toVendor(value: string): AgentVendor | null {
  if (value === '') return null
  if (value === 'claude' || value === 'codex' || value === 'opencode') return value
  throw new SangamError(ErrorCode.StoreIncompatible, `a lease row names an unknown vendor "${value}"`)
}

function toKind(value: string): LeaseKind {
  if (value === 'claim' || value === 'auto') return value
  throw new SangamError(ErrorCode.StoreIncompatible, `a lease row has an unknown kind "${value}"`)
}

/** Whether this database has the lease tables (a read-only replica may predate them). */
export function hasLeaseTables(db: Db): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lease'`).get() !== undefined
}
