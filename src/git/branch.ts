import { resolveCommit } from './commit-log.ts'
import { gitOutputOrNull } from './git.ts'

/** The branch checked out in the worktree at `cwd`, or null when HEAD is detached. */
export function currentBranch(cwd: string): string | null {
  return gitOutputOrNull(['symbolic-ref', '--quiet', '--short', 'HEAD'], cwd)
}

/** The commit HEAD points at, or null in a repository without commits. */
export function headCommit(cwd: string): string | null {
  return resolveCommit(cwd, 'HEAD')
}

/**
 * The branch work lands on: what `origin/HEAD` names (the local branch of that name when there is
 * one), else the first of main, master, trunk that exists; null when none does.
 */
export function defaultBranch(cwd: string): string | null {
  const remoteHead = gitOutputOrNull(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], cwd)
  if (remoteHead !== null && remoteHead !== '') {
    const local = remoteHead.replace(/^origin\//, '')
    return branchExists(cwd, local) ? local : remoteHead
  }
  return ['main', 'master', 'trunk'].find((name) => branchExists(cwd, name)) ?? null
}

function branchExists(cwd: string, name: string): boolean {
  return resolveCommit(cwd, `refs/heads/${name}`) !== null
}
