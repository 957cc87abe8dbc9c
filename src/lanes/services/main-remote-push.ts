import { runGit } from '../../git/git.ts'
import { pushFailureWords } from '../../git/push-failure.ts'
import { refCommit } from './lane-git.ts'
import { integratorEnvironment } from './main-guard-file.ts'
import type { RemoteMain } from './remote-main-publisher.ts'

/**
 * Unattached, with a remote (D303): after a sync, main goes to the remote's main as a plain
 * fast-forward push (never a force), carrying the guard's token since sangam is the one moving it.
 * Best effort: a failure is a warning, and since the remote-tracking ref then still differs from
 * main, the next sync pushes again; when it already equals main, nothing is pushed at all. A
 * remote whose main has commits this main lacks is never overwritten: the warning says how to
 * bring them in.
 */
export function pushMainToRemote(remote: RemoteMain): string[] {
  const { root, mainBranch } = remote
  const main = refCommit(root, `refs/heads/${mainBranch}`)
  if (main === null) return []
  if (refCommit(root, `refs/remotes/${remote.remote}/${mainBranch}`) === main) return []
  const ref = `refs/heads/${mainBranch}`
  const pushed = runGit(
    ['push', '--porcelain', remote.remote, `${ref}:${ref}`],
    root,
    undefined,
    integratorEnvironment(remote.commonDir),
  )
  if (pushed.code === 0) return []
  const said = `${pushed.stdout}\n${pushed.stderr}`
  if (/\[rejected\]|fetch first|non-fast-forward/.test(said))
    return [
      `${remote.remote}'s ${mainBranch} has commits this ${mainBranch} lacks, so ${mainBranch} was not pushed there (it is never overwritten): bring them in through a lane (git fetch ${remote.remote}, then git merge ${remote.remote}/${mainBranch} in the lane and sangam sync); the next sangam sync pushes ${mainBranch} again`,
    ]
  return [
    `could not push ${mainBranch} to ${remote.remote}; the next sangam sync tries again. git push said: ${pushFailureWords(pushed).split('\n').join(' / ')}`,
  ]
}
