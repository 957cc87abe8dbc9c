import { runGit } from './git.ts'
import { type ChangedPath, sangamsOwnChanges } from './own-changes.ts'

/** A worktree's HEAD and what is uncommitted in it, as every view that counts work sees it. */
export interface WorktreeChanges {
  /** HEAD's commit; null on an unborn branch. */
  readonly head: string | null
  /**
   * Paths staged, unstaged or untracked (ignored ones are not), without sangam's own changes
   * (own-changes.ts): a hook file `install-hooks` wrote is nobody's work.
   */
  readonly uncommitted: readonly string[]
  /** sangam's own files found changed (or, asked for, ignored), left out of the other lists. */
  readonly own: readonly string[]
  /** Ignored paths but sangam's own, when asked for (`ignored: true`); else empty. */
  readonly ignored: readonly string[]
}

/**
 * HEAD and the uncommitted paths of `worktree` from one `git status --porcelain=v2 -z`; null when
 * git cannot read it. `optionalLocks: false` keeps status from refreshing the index (a reader
 * that must not change the index's time); `ignored: true` lists ignored paths too.
 */
export function worktreeChanges(
  worktree: string,
  options: { readonly optionalLocks?: boolean; readonly ignored?: boolean } = {},
): WorktreeChanges | null {
  const args = [...statusArgs]
  if (options.ignored === true) args.push('--ignored')
  const status = runGit(options.optionalLocks === false ? ['--no-optional-locks', ...args] : args, worktree)
  return status.code === 0 ? changesFromStatus(worktree, status.stdout) : null
}

/** The `git status` that every reader of a worktree's changes runs (`worktreeChanges`, `targets`). */
export const statusArgs: readonly string[] = [
  'status',
  '--porcelain=v2',
  '--branch',
  '-z',
  '--untracked-files=all',
]

/** What `worktree`'s `git status` output (`statusArgs`, `--ignored` or not) says of its changes. */
export function changesFromStatus(worktree: string, out: string): WorktreeChanges {
  const { head, changed, ignored } = parseStatus(out)
  const own = sangamsOwnChanges(worktree, [...changed, ...ignored.map((path) => ({ path, tracked: false }))])
  const notOwn = (path: string) => !own.has(path)
  return {
    head,
    uncommitted: changed.map((entry) => entry.path).filter(notOwn),
    own: [...own],
    ignored: ignored.filter(notOwn),
  }
}

/** Field counts before the path of each porcelain v2 entry type (git-status(1)). */
const fieldsBeforePath: Readonly<Record<string, number>> = { '1': 8, '2': 9, u: 10 }

/** HEAD and the changed and ignored paths of a `git status --porcelain=v2 --branch -z` output. */
export function parseStatus(out: string): { head: string | null; changed: ChangedPath[]; ignored: string[] } {
  const items = out.split('\0')
  let head: string | null = null
  const changed: ChangedPath[] = []
  const ignored: string[] = []
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as string
    if (item.startsWith('# branch.oid ')) {
      const oid = item.slice('# branch.oid '.length)
      head = /^[0-9a-f]{7,}$/.test(oid) ? oid : null
      continue
    }
    if (item === '' || item.startsWith('#')) continue
    if (item.startsWith('! ')) {
      ignored.push(item.slice(2))
      continue
    }
    if (item.startsWith('? ')) {
      changed.push({ path: item.slice(2), tracked: false })
      continue
    }
    const fields = fieldsBeforePath[item[0] ?? '']
    if (fields === undefined) continue
    changed.push({ path: item.split(' ').slice(fields).join(' '), tracked: true })
    // A rename or copy (type 2) is followed by the path it came from.
    if (item.startsWith('2 ')) i += 1
  }
  return { head, changed, ignored }
}

/**
 * Several worktrees' `git status --branch -z` outputs written one after another (`git
 * for-each-repo`), cut where each begins: every output opens with its `# branch.oid` header, and
 * the one item that could look like it (the path a rename or copy came from) is stepped over.
 */
export function splitStatuses(out: string): string[] {
  const items = out.split('\0')
  const outputs: string[][] = []
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as string
    if (item.startsWith('# branch.oid ')) outputs.push([])
    const current = outputs.at(-1)
    if (current === undefined) continue
    current.push(item)
    if (item.startsWith('2 ') && i + 1 < items.length) {
      current.push(items[i + 1] as string)
      i += 1
    }
  }
  return outputs.map((output) => `${output.join('\0')}\0`)
}
