import type { MainOutside } from '../protocol/main-outside-view.ts'

export type { MainOutside } from '../protocol/main-outside-view.ts'

/**
 * The main sangam last moved (D300): on this machine, the commit a publish, a catch-up or a
 * person's acceptance left main at; on a team server, the commit the last publish pushed to the
 * shared remote. A main anywhere else was moved by a route the guard hooks do not see (hooks
 * switched off, the ref file written by hand, the guard's token borrowed), and sync builds on it
 * only once a person accepts it or puts the recorded one back.
 */
export interface MainRecord {
  readonly branch: string
  readonly commit: string
  /** While sangam moves main: the commit it moves from (main may still be there after a crash). */
  readonly movingFrom: string | null
  /** `moved` (a publish or a catch-up), `adopted` (the first look, no record yet), `accepted`. */
  readonly how: 'moved' | 'adopted' | 'accepted'
  /** Who accepted it (a person), for `accepted`. */
  readonly by: string | null
  readonly at: number
}

/** What a look at main finds against the record. */
export type MainCheck =
  | { readonly kind: 'unrecorded' }
  | { readonly kind: 'in-step' }
  /** A move sangam began ended at `commit` (main is the move's target or still its origin). */
  | { readonly kind: 'settled'; readonly commit: string }
  | { readonly kind: 'outside'; readonly record: MainRecord; readonly actual: string | null }

/**
 * Compares main's commit now (`actual`, null when the branch is gone) with the record. A record of
 * another branch (main was renamed, `origin/HEAD` moved) is no record.
 */
export function checkMain(record: MainRecord | null, branch: string, actual: string | null): MainCheck {
  if (record === null || record.branch !== branch) return { kind: 'unrecorded' }
  if (actual === record.commit)
    return record.movingFrom === null ? { kind: 'in-step' } : { kind: 'settled', commit: actual }
  if (record.movingFrom !== null && actual === record.movingFrom) return { kind: 'settled', commit: actual }
  return { kind: 'outside', record, actual }
}

/** The team's record on the server (lanes/protocol/integration-lock.ts carries it). */
export interface TeamMainRecord {
  readonly commit: string
  /** While a publish is under way: the remote's main it moves from. */
  readonly from: string | null
}

/**
 * Whether the shared remote's main (`remote`, as just fetched) is one the team's record allows: the
 * commit the last publish pushed, or, while that publish may still be pushing, the one it moves
 * from. No record (a team that has not published since it had one) allows anything.
 */
export function remoteMainInStep(record: TeamMainRecord | null, remote: string | null): boolean {
  if (record === null || remote === null) return true
  return remote === record.commit || remote === record.from
}

/** `main moved outside sangam`, as words: for status, the board, lane, ready and the daemon. */
export function outsideText(outside: MainOutside): string {
  const now = outside.commit === null ? 'is gone' : `is at ${outside.commit.slice(0, 12)}`
  const how =
    outside.recordedHow === 'accepted'
      ? `accepted by ${outside.recordedBy ?? 'a person'}`
      : outside.recordedHow === 'adopted'
        ? 'as sangam first saw it'
        : `published by sangam${outside.where === 'remote' && outside.recordedBy !== null ? ` (${outside.recordedBy})` : ''}`
  return `${outside.branch} moved outside sangam: it ${now}, not ${outside.recorded.slice(0, 12)} (${how}); sync builds on it only once a person accepts it (${outside.accept ?? 'it cannot be accepted: it is gone'}) or restores ${outside.recorded.slice(0, 12)} (${outside.restore})`
}

/** One short line for the board: what moved, and where the way out is said. */
export function outsideLine(outside: MainOutside): string {
  const now = outside.commit === null ? 'is gone' : `is at ${outside.commit.slice(0, 12)}`
  return `${outside.branch} moved outside sangam: it ${now}, not ${outside.recorded.slice(0, 12)}; sync refuses until a person accepts or restores it (sangam status says how)`
}
