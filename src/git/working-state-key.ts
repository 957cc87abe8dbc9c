import { createHash } from 'node:crypto'
import { type BigIntStats, lstatSync } from 'node:fs'
import { join } from 'node:path'

/**
 * What a dirty worktree's working state is made of, as one key: its path, HEAD, every entry of
 * its `git status --porcelain=v2 -z` (each changed path with its modes and its HEAD and index
 * object ids) and the file status (`lstat`: mode, size, inode, device, mtime and ctime in ns) of
 * every changed path, or its absence. The working state (`git add -A` over HEAD) depends on
 * nothing else: a path status does not list has HEAD's content, a staged one is in the index ids,
 * and a file's bytes cannot change without its mtime or ctime moving, unless they moved within
 * one tick of the clock the file system stamps with: `newestMtimeNs` lets the caller refuse a key
 * read that close to a change (racy, as git calls it). A submodule, or a repository inside the
 * worktree, has no key: what `git add` records of it is its HEAD, which no file status here shows.
 */
export interface WorkingStateKey {
  readonly key: string
  /** The newest mtime among the changed paths that exist (0 when none does). */
  readonly newestMtimeNs: bigint
}

/**
 * Moves when how a state is made changes (what `git add` is told to leave out: own-changes.ts),
 * so a state an older sangam kept is not taken for one this one would make.
 */
const readingVersion = 'working-state 1'

/** The key of a worktree (top level `path`, HEAD `head`) from its status output `statusOut`. */
export function workingStateKey(
  path: string,
  head: string,
  statusOut: string,
  changed: readonly string[],
): WorkingStateKey | null {
  const hash = createHash('sha256')
  hash.update(`${readingVersion}\0${path}\0${head}\0`)
  for (const item of statusOut.split('\0')) {
    // The header lines (`# branch.ab` moves with a fetch) say nothing the entries do not.
    if (item === '' || item.startsWith('#')) continue
    if (/^[12u] /.test(item) && item.split(' ')[2]?.startsWith('S')) return null
    hash.update(`${item}\0`)
  }
  let newestMtimeNs = 0n
  for (const changedPath of [...changed].sort()) {
    let stat: BigIntStats | undefined
    try {
      stat = lstatSync(join(path, changedPath), { bigint: true, throwIfNoEntry: false })
    } catch {
      return null // unreadable (a folder on the way replaced by a file, say): the reading says what it is
    }
    if (stat === undefined) {
      hash.update(`${changedPath}\0absent\0`)
      continue
    }
    if (stat.isDirectory()) return null
    if (stat.mtimeNs > newestMtimeNs) newestMtimeNs = stat.mtimeNs
    hash.update(
      `${changedPath}\0${stat.mode} ${stat.size} ${stat.ino} ${stat.dev} ${stat.mtimeNs} ${stat.ctimeNs}\0`,
    )
  }
  return { key: hash.digest('hex'), newestMtimeNs }
}

/**
 * How long before a reading started a file's last change must be for its key to be kept: file
 * systems stamp to the nanosecond, the jiffy, or (FAT, HFS+, ext4 with small inodes) one or two
 * seconds, and a rewrite within the same stamp leaves the file status as it was.
 */
export const racyWindowNs = 2_000_000_000n
