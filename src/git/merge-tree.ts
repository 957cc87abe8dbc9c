import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { runGitAsync } from './git.ts'

/** What merging two commits would give, without touching any worktree. */
export interface MergeResult {
  readonly clean: boolean
  /** Paths that would conflict, sorted; empty when clean. */
  readonly conflicts: readonly string[]
  /** Why git could not merge them at all (unrelated histories); null when it could. */
  readonly error: string | null
  /** The merged tree git wrote (conflict markers in it where it conflicts); null where it wrote none. */
  readonly tree: string | null
}

/**
 * Real merges of each pair of commits, in one `git merge-tree --write-tree --stdin` (git ≥ 2.38),
 * which writes only objects. With `--stdin` each merge is `<clean>NUL<tree>NUL` then the
 * conflicted paths (`--name-only`, NUL-terminated) and an empty item; its first field is 1 when
 * clean and 0 on conflicts (git's own `clean` flag, not an exit code). A pair git refuses aborts
 * the whole batch (`refusing to merge unrelated histories`), so then every pair is merged alone,
 * where the exit code answers: 0 clean, 1 conflicts, anything else an error for that pair only.
 */
export async function mergeTrees(
  cwd: string,
  pairs: readonly (readonly [string, string])[],
): Promise<MergeResult[]> {
  if (pairs.length === 0) return []
  const batch = await runGitAsync(
    ['merge-tree', '--write-tree', '--stdin', '--name-only', '--no-messages'],
    cwd,
    pairs.map(([left, right]) => `${left} ${right}\n`).join(''),
  )
  if (batch.code === 0) {
    const parsed = parseBatch(batch.stdout, pairs.length)
    if (parsed !== null) return parsed
  }
  const results: MergeResult[] = []
  for (const [left, right] of pairs) results.push(await mergeOne(cwd, left, right))
  return results
}

function parseBatch(stdout: string, expected: number): MergeResult[] | null {
  const items = stdout.split('\0')
  const results: MergeResult[] = []
  let i = 0
  while (results.length < expected) {
    const status = items[i]
    const tree = items[i + 1]
    if ((status !== '0' && status !== '1') || tree === undefined || !/^[0-9a-f]{40,64}$/.test(tree))
      return null
    i += 2
    const paths = new Set<string>()
    while (i < items.length && items[i] !== '') {
      paths.add(items[i] as string)
      i += 1
    }
    if (i >= items.length) return null
    i += 1
    const conflicts = [...paths].sort()
    results.push({ clean: status === '1' && conflicts.length === 0, conflicts, error: null, tree })
  }
  return results
}

async function mergeOne(cwd: string, left: string, right: string): Promise<MergeResult> {
  const result = await runGitAsync(
    ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', left, right],
    cwd,
  )
  if (result.code === 129) {
    // Usage error: a git before 2.38 has no `merge-tree --write-tree`. Every pair would fail alike.
    throw new SangamError(
      ErrorCode.GitFailed,
      `git merge-tree --write-tree is refused (it needs git 2.38 or later): ${result.stderr.trim().split('\n')[0] ?? ''}`,
    )
  }
  if (result.code !== 0 && result.code !== 1) {
    return {
      clean: false,
      conflicts: [],
      error: result.stderr.trim() || `git merge-tree exited ${result.code}`,
      tree: null,
    }
  }
  // Output: the tree, then the conflicted paths, each NUL-terminated.
  const [tree = '', ...paths] = result.stdout.split('\0')
  const conflicts = [...new Set(paths.filter((item) => item !== ''))].sort()
  return {
    clean: result.code === 0,
    conflicts,
    error: null,
    tree: /^[0-9a-f]{40,64}$/.test(tree) ? tree : null,
  }
}
