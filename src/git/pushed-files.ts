import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { gitOutputOrNull, runGit } from './git.ts'
import type { RefUpdate } from './pre-push-input.ts'

/**
 * The files a push would change on the remote: every path touched by a commit the remote does
 * not have yet (githooks(5), pre-push). For a ref the remote already has, that is `local` minus
 * the remote's commit; for a new ref, `local` minus everything known to be on that remote. A merge
 * counts the files it brings into its first parent, which is what the pushed branch gains.
 * Renames count both paths: the old one disappears, the new one appears.
 */
export function pushedFiles(root: string, remoteName: string, updates: readonly RefUpdate[]): string[] {
  const files = new Set<string>()
  for (const update of updates) {
    if (update.kind === 'delete') continue
    for (const file of filesOf(root, [update.localSha, '--not', ...remoteSide(root, remoteName, update)])) {
      files.add(file)
    }
  }
  return [...files].sort()
}

function remoteSide(root: string, remoteName: string, update: RefUpdate): string[] {
  if (update.remoteSha !== null && hasObject(root, update.remoteSha)) return [update.remoteSha]
  // The remote's commit is not here (someone pushed since our last fetch), or the ref is new:
  // what we know the remote has is its remote-tracking refs. An unnamed remote (a URL) has none
  // of its own, so every remote-tracking ref stands in.
  return isRemote(root, remoteName) ? [`--remotes=${remoteName}`] : ['--remotes']
}

function filesOf(root: string, range: readonly string[]): string[] {
  const result = runGit(
    ['log', '-z', '--format=', '--name-only', '--no-renames', '--diff-merges=first-parent', ...range],
    root,
  )
  if (result.code !== 0) {
    throw new SangamError(ErrorCode.GitFailed, `git log ${range.join(' ')} failed: ${result.stderr.trim()}`)
  }
  return result.stdout.split('\0').filter((name) => name !== '')
}

function hasObject(root: string, sha: string): boolean {
  return runGit(['cat-file', '-e', `${sha}^{commit}`], root).code === 0
}

function isRemote(root: string, name: string): boolean {
  return (gitOutputOrNull(['remote'], root) ?? '').split('\n').includes(name)
}
