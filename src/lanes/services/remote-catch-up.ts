import { runGit } from '../../git/git.ts'
import { remoteMainInStep } from '../core/main-record.ts'
import type { TeamMain } from '../protocol/integration-lock.ts'
import { isAncestor, refCommit } from './lane-git.ts'
import type { MainPublisher } from './main-publisher.ts'
import type { RemoteMain } from './remote-main-publisher.ts'
import type { TeamMainDesk } from './team-main-desk.ts'

/** What a catch-up did: `caught-up` means local main moved up to the remote's. */
export type CatchUp =
  | { readonly status: 'in-step' | 'caught-up' | 'ahead' | 'no-remote-main'; readonly main: string | null }
  | { readonly status: 'unreachable' | 'diverged'; readonly main: string | null; readonly warning: string }
  /** The remote's main is not where the team's record says sangam last moved it (D302): nothing moved. */
  | {
      readonly status: 'outside'
      readonly main: string | null
      readonly remote: string
      readonly record: TeamMain
    }

/**
 * Before a team sync: fetches the remote's main (it moves only `refs/remotes/*`, which the main
 * guard lets by) and, when this machine's main is behind it, fast-forwards main here through
 * `local` (the same move a publish makes, so the main worktree comes along). Main here is never
 * moved backwards or sideways: ahead or diverged, it is left as it is, and the publish decides.
 * With the team's record of main (`desk`), a remote main the record does not allow is not caught
 * up with at all (`outside`). The record is read after the fetch: a publish records where main
 * goes before it pushes, so whatever the fetch saw, the record read after it already allows.
 */
export async function catchUpWithRemote(
  remote: RemoteMain,
  local: MainPublisher,
  desk: TeamMainDesk | null = null,
): Promise<CatchUp> {
  const { root, mainBranch } = remote
  const fetched = runGit(
    [
      'fetch',
      '--quiet',
      remote.remote,
      `+refs/heads/${mainBranch}:refs/remotes/${remote.remote}/${mainBranch}`,
    ],
    root,
  )
  const here = refCommit(root, `refs/heads/${mainBranch}`)
  if (fetched.code !== 0) {
    if (/couldn't find remote ref|could not find remote ref/i.test(fetched.stderr))
      return { status: 'no-remote-main', main: here }
    const why = fetched.stderr.trim().split('\n').at(-1) ?? ''
    return {
      status: 'unreachable',
      main: here,
      warning: `could not fetch ${remote.remote}'s ${mainBranch} (${why}); syncing against this machine's ${mainBranch}`,
    }
  }
  const there = refCommit(root, `refs/remotes/${remote.remote}/${mainBranch}`)
  if (there === null) return { status: 'no-remote-main', main: here }
  const record = desk === null ? null : await desk.read()
  if (record !== null && !remoteMainInStep(record, there))
    return { status: 'outside', main: here, remote: there, record }
  if (here === null || here === there) return { status: 'in-step', main: here }
  if (isAncestor(root, there, here)) return { status: 'ahead', main: here }
  if (!isAncestor(root, here, there))
    return {
      status: 'diverged',
      main: here,
      warning: `${mainBranch} here (${here.slice(0, 12)}) and on ${remote.remote} (${there.slice(0, 12)}) have diverged; sync will not publish until they are reconciled`,
    }
  await local.publish({ from: here, to: there })
  return { status: 'caught-up', main: there }
}
