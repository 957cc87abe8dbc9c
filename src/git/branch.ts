import { gitOutputOrNull, runGit } from './git.ts'

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

/** HEAD of the worktree at `cwd`, in one git call (two in a repository without commits). */
export function readHead(cwd: string): HeadState {
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
 * The branch work lands on, in one git call: what `origin/HEAD` names (the local branch of that
 * name when there is one), else the first of main, master, trunk that exists; null when none does.
 */
export function findMainBranch(cwd: string): MainBranch | null {
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
