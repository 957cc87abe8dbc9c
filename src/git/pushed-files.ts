import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { gitOutputOrNull, runGit } from './git.ts'
import type { RefUpdate } from './pre-push-input.ts'

/**
 * The files a push would change on the remote: every path touched by a commit the remote does
 * not have yet (githooks(5), pre-push). For a ref the remote already has, that is `local` minus
 * the remote's commit; for a new ref, `local` minus everything known to be on that remote. A merge
 * counts the files it brings into the parent the remote already has (D408): sangam's own lane
 * integration merges main into the lane, so main, which the remote has, is its second parent, and
 * what main brought is no change to the remote. A merge of two sides the remote lacks counts
 * against its first parent. Renames count both paths: the old one disappears, the new one appears.
 */
export function pushedFiles(root: string, remoteName: string, updates: readonly RefUpdate[]): string[] {
  const files = new Set<string>()
  for (const update of updates) {
    if (update.kind === 'delete') continue
    const range = [update.localSha, '--not', ...remoteSide(root, remoteName, update)]
    for (const file of [...filesOf(root, range), ...mergeFiles(root, range)]) files.add(file)
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

/** The files the pushed commits that are not merges touch. */
function filesOf(root: string, range: readonly string[]): string[] {
  return names(git(root, ['log', '-z', '--format=', '--name-only', '--no-renames', '--no-merges', ...range]))
}

/** The files each pushed merge brings into its first parent the remote has, else its first parent. */
function mergeFiles(root: string, range: readonly string[]): string[] {
  const commits = git(root, ['rev-list', '--parents', ...range])
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(' '))
  const pushed = new Set(commits.map(([commit]) => commit))
  return commits.flatMap(([commit = '', ...parents]) => {
    if (parents.length < 2) return []
    const base = parents.find((parent) => !pushed.has(parent)) ?? parents[0] ?? ''
    return names(git(root, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', base, commit]))
  })
}

function git(root: string, args: readonly string[]): string {
  const result = runGit(args, root)
  if (result.code !== 0) {
    throw new SangamError(ErrorCode.GitFailed, `git ${args.join(' ')} failed: ${result.stderr.trim()}`)
  }
  return result.stdout
}

function names(output: string): string[] {
  return output.split('\0').filter((name) => name !== '')
}

function hasObject(root: string, sha: string): boolean {
  return runGit(['cat-file', '-e', `${sha}^{commit}`], root).code === 0
}

function isRemote(root: string, name: string): boolean {
  return (gitOutputOrNull(['remote'], root) ?? '').split('\n').includes(name)
}
