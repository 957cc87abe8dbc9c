import { gitOutputOrNull, runGit } from './git.ts'
import { openRefFiles, type RefFiles } from './ref-files.ts'

/** Where a worktree's HEAD is: the branch (null when detached) and the commit (null before the first). */
export interface HeadState {
  readonly branch: string | null
  readonly commit: string | null
}

/** The branch work lands on, and its commit. */
export interface MainBranch {
  /** `main`, or `origin/<name>` when origin/HEAD names a branch this clone has no local branch of. */
  readonly name: string
  readonly commit: string
  /** Whether `name` is a local branch (lanes publish to one, the guard protects one). */
  readonly local: boolean
}

/**
 * HEAD of the worktree at `cwd`, read from its files (`ref-files.ts`); where only git can say, in
 * one git call (two in a repository without commits).
 */
export function readHead(cwd: string): HeadState {
  const head = openRefFiles(cwd)?.head() ?? null
  if (head !== null) {
    const branch = head.symref?.startsWith('refs/heads/') ? head.symref.slice('refs/heads/'.length) : null
    return { branch, commit: head.commit }
  }
  const out = gitOutputOrNull(['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'], cwd)
  if (out !== null) {
    const [commit = '', ref = ''] = out.split('\n')
    return { branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null, commit }
  }
  return { branch: gitOutputOrNull(['symbolic-ref', '--quiet', '--short', 'HEAD'], cwd), commit: null }
}

/** The branch checked out in the worktree at `cwd`, or null when HEAD is detached. */
export function currentBranch(cwd: string): string | null {
  return readHead(cwd).branch
}

/**
 * The branch work lands on: what `origin/HEAD` names (the local branch of that name when there is
 * one), else the first of main, master, trunk that exists; null when none does. Read from the
 * ref files (`ref-files.ts`), else in one git call.
 */
export function findMainBranch(cwd: string): MainBranch | null {
  const files = openRefFiles(cwd)
  const fromFiles = files === null ? null : mainBranchFromFiles(files)
  if (fromFiles !== null) return fromFiles.main
  const result = runGit(
    [
      'for-each-ref',
      '--format=%(refname)%09%(objectname)%09%(symref)',
      'refs/remotes/origin/HEAD',
      'refs/heads/',
    ],
    cwd,
  )
  if (result.code !== 0) return null
  const refs = new Map<string, { commit: string; target: string }>()
  for (const line of result.stdout.split('\n')) {
    const [name = '', commit = '', target = ''] = line.split('\t')
    if (name !== '') refs.set(name, { commit, target })
  }
  const local = (name: string): MainBranch | null => {
    const ref = refs.get(`refs/heads/${name}`)
    return ref === undefined ? null : { name, commit: ref.commit, local: true }
  }
  const remoteHead = refs.get('refs/remotes/origin/HEAD')
  if (remoteHead?.target.startsWith('refs/remotes/origin/')) {
    const name = remoteHead.target.slice('refs/remotes/origin/'.length)
    return local(name) ?? { name: `origin/${name}`, commit: remoteHead.commit, local: false }
  }
  return local('main') ?? local('master') ?? local('trunk')
}

/** The main branch as the ref files say it (`main` null: there is none); null when a file is unreadable. */
function mainBranchFromFiles(files: RefFiles): { readonly main: MainBranch | null } | null {
  let unreadable = false
  const local = (name: string): MainBranch | null => {
    const ref = files.read(`refs/heads/${name}`)
    if (ref === null) unreadable = true
    return ref === null || ref === undefined || ref.commit === null
      ? null
      : { name, commit: ref.commit, local: true }
  }
  const remoteHead = files.read('refs/remotes/origin/HEAD')
  if (remoteHead === null) return null
  if (remoteHead?.symref?.startsWith('refs/remotes/origin/') && remoteHead.commit !== null) {
    const name = remoteHead.symref.slice('refs/remotes/origin/'.length)
    const main = local(name) ?? { name: `origin/${name}`, commit: remoteHead.commit, local: false }
    return unreadable ? null : { main }
  }
  const main = local('main') ?? local('master') ?? local('trunk')
  return unreadable ? null : { main }
}
