import { readHead } from '../../git/branch.ts'

/** Where a poster stands: the worktree's top level, its branch (null when detached) and HEAD. */
export interface GitContext {
  readonly worktree: string | null
  readonly branch: string | null
  readonly head: string | null
}

/** The git context of `cwd` in the worktree whose top level is `worktree` (one git call). */
export function gitContextOf(worktree: string, cwd: string): GitContext {
  const head = readHead(cwd)
  return { worktree, branch: head.branch, head: head.commit }
}
