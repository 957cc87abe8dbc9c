import { gitOutputOrNull } from '../../git/git.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/db.ts'
import { checkMain, type MainOutside, type MainRecord } from '../core/main-record.ts'
import type { TeamMain } from '../protocol/integration-lock.ts'
import { readMainRecord, writeMainRecord } from '../store/main-record-table.ts'
import { worktreeOfBranch } from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'

export type { MainOutside } from '../core/main-record.ts'
export { outsideText } from '../core/main-record.ts'

/**
 * This machine's record of the main sangam last moved (D300, lanes/core/main-record.ts), written by
 * the one place main moves (`RefMainPublisher`), read by every lane command that reads main.
 */

/** What `RefMainPublisher` tells the record around each move of main. */
export interface MainMoves {
  /** Before the ref moves: until `moved` or `stayed`, main may be either. */
  moving(from: string, to: string): void
  moved(to: string): void
  /** The move did not happen: main is still (as far as sangam knows) `from`. */
  stayed(from: string): void
}

export function storeMainMoves(db: Db, branch: string, clock: Clock): MainMoves {
  const write = (commit: string, movingFrom: string | null): void =>
    writeMainRecord(db, { branch, commit, movingFrom, how: 'moved', by: null, at: clock.now() })
  return {
    moving: (from, to) => write(to, from),
    moved: (to) => write(to, null),
    stayed: (from) => write(from, null),
  }
}

/** What a lane command knows when it looks at main. */
export interface MainLook {
  readonly db: Db
  readonly clock: Clock
  readonly root: string
  readonly mainBranch: string
}

/**
 * Main here against the record: null when they agree. A move sangam began (a crash between the
 * record and the ref) is settled to wherever main is; with `adopt`, a first look (no record yet:
 * lanes before this record existed, or main renamed) records main as it is. Readers pass
 * `adopt: false` and so never write but to settle.
 */
export function lookAtMain(
  look: MainLook,
  actual: string | null,
  options: { adopt: boolean },
): MainOutside | null {
  const record = readMainRecord(look.db)
  const check = checkMain(record, look.mainBranch, actual)
  switch (check.kind) {
    case 'in-step':
      return null
    case 'settled':
      writeMainRecord(look.db, { ...(record as MainRecord), commit: check.commit, movingFrom: null })
      return null
    case 'unrecorded':
      if (options.adopt && actual !== null)
        writeMainRecord(look.db, {
          branch: look.mainBranch,
          commit: actual,
          movingFrom: null,
          how: 'adopted',
          by: null,
          at: look.clock.now(),
        })
      return null
    case 'outside':
      return outsideHere(look, check.record, check.actual)
  }
}

function outsideHere(look: MainLook, record: MainRecord, actual: string | null): MainOutside {
  const ref = `refs/heads/${look.mainBranch}`
  const checkedOut = worktreeOfBranch(look.root, look.mainBranch)
  const save =
    actual === null ? '' : `git -C ${quote(look.root)} update-ref ${outsideRef(actual)} ${actual} && `
  // The guard refuses every move of main by hand, this one too: it is let through for this command.
  const putBack =
    checkedOut !== null && actual !== null
      ? `git -C ${quote(checkedOut)} -c core.hooksPath=/dev/null reset --keep ${record.commit}`
      : `git -C ${quote(look.root)} -c core.hooksPath=/dev/null update-ref ${ref} ${record.commit}${actual === null ? '' : ` ${actual}`}`
  return {
    where: 'here',
    branch: look.mainBranch,
    commit: actual,
    recorded: record.commit,
    recordedAt: record.at,
    recordedHow: record.how,
    recordedBy: record.by,
    accept: actual === null ? null : acceptCommand(actual),
    restore: `${save}${putBack}`,
  }
}

/** The team's remote main (as just fetched or last fetched) outside the team server's record. */
export function outsideRemote(input: {
  readonly remote: string
  readonly root: string
  readonly mainBranch: string
  readonly actual: string
  readonly record: TeamMain
}): MainOutside {
  const { remote, mainBranch, actual, record } = input
  const ref = `refs/heads/${mainBranch}`
  return {
    where: 'remote',
    branch: `${remote}/${mainBranch}`,
    commit: actual,
    recorded: record.commit,
    recordedAt: record.at,
    recordedHow: record.how,
    recordedBy: `${record.owner} (lane ${record.lane}@${record.machine})`,
    accept: acceptCommand(actual),
    // --no-verify: the guard's pre-push gate refuses every push of main but sangam's own.
    restore: `git -C ${quote(input.root)} push --no-verify ${remote} ${actual}:${outsideRef(actual)} && git -C ${quote(input.root)} push --no-verify --force-with-lease=${ref}:${actual} ${remote} ${record.commit}:${ref}`,
  }
}

/** Where a main moved outside sangam is kept, so a restore loses nothing. */
export function outsideRef(commit: string): string {
  return `refs/sangam/outside/${commit}`
}

function acceptCommand(commit: string): string {
  return `sangam sync --accept-main ${commit.slice(0, 12)}`
}

/** The refusal `sync` answers while main is outside the record. */
export function mainOutsideRefused(outside: MainOutside, savedAs: string | null): Error {
  return laneRefused(
    'main-moved-outside',
    `${outside.branch} moved outside sangam (a commit with hooks off, the ref written by hand, the guard's token borrowed, or a push around the guard): it ${outside.commit === null ? 'is gone' : `is at ${outside.commit}`}, but sangam last ${outside.recordedHow === 'accepted' ? 'had it accepted at' : 'moved it to'} ${outside.recorded}${savedAs === null ? '' : `; ${outside.commit?.slice(0, 12)} is kept as ${savedAs}`}. Nothing was moved`,
    outside.accept === null
      ? `a person restores ${outside.recorded.slice(0, 12)}: ${outside.restore}`
      : `a person looks at ${outside.commit?.slice(0, 12)} (git log ${outside.recorded.slice(0, 12)}..${outside.commit?.slice(0, 12)}) and either accepts it, \`${outside.accept}\` in this lane, or restores ${outside.recorded.slice(0, 12)}: ${outside.restore}`,
  )
}

/** A path as one shell word (quoted only when it needs to be). */
function quote(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`
}

/**
 * Main here against this machine's record, for a reader outside the lane commands (`ready`): null
 * without lanes (no record), without a main branch, or when main is where sangam last moved it.
 */
export function mainOutsideOf(input: {
  readonly db: Db
  readonly clock: Clock
  readonly root: string
}): MainOutside | null {
  const record = readMainRecord(input.db)
  if (record === null) return null
  const actual = gitOutputOrNull(
    ['rev-parse', '--verify', '--quiet', `refs/heads/${record.branch}^{commit}`],
    input.root,
  )
  return lookAtMain({ ...input, mainBranch: record.branch }, actual, { adopt: false })
}
