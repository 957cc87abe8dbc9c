import { runGit } from '../../git/git.ts'
import { pushFailureWords } from '../../git/push-failure.ts'
import { openRefFiles } from '../../git/ref-files.ts'
import type { Db } from '../../store/db.ts'
import { readLanes } from '../store/lane-table.ts'
import { refCommit } from './lane-git.ts'
import type { RemoteMain } from './remote-main-publisher.ts'

/**
 * After a team sync, best effort: every lane branch of this machine and every recovery ref
 * (`refs/sangam/*`) pushed to the shared remote, so a teammate (or this human on another machine)
 * can reach them. Lane branches are this machine's own, so they are pushed as they are here;
 * main is never among them. A failure is a warning, and the next sync pushes them all again.
 */
export function pushLaneRefs(db: Db, remote: RemoteMain): string[] {
  // A branch whose remote-tracking ref (which git moves on each push) already names its commit
  // needs no push: a sync that changed nothing then spawns no git push and no pre-push hook.
  const refspecs = readLanes(db)
    .filter((lane) => {
      const here = refCommit(remote.root, `refs/heads/${lane.branch}`)
      return here !== null && refCommit(remote.root, `refs/remotes/${remote.remote}/${lane.branch}`) !== here
    })
    .map((lane) => `+refs/heads/${lane.branch}:refs/heads/${lane.branch}`)
  // Recovery refs have no remote-tracking copy: they go whenever there are any.
  if (recoveryRefs(remote.root).length > 0) refspecs.push('+refs/sangam/*:refs/sangam/*')
  if (refspecs.length === 0) return []
  const pushed = runGit(['push', '--porcelain', remote.remote, ...refspecs], remote.root)
  if (pushed.code === 0) return []
  return [
    `could not push the lane branches and recovery refs to ${remote.remote}; the next sangam sync tries again. git push said: ${pushFailureWords(pushed).split('\n').join(' / ')}`,
  ]
}

function recoveryRefs(root: string): readonly string[] {
  const fromFiles = openRefFiles(root)?.names('refs/sangam/')
  if (fromFiles !== null && fromFiles !== undefined) return fromFiles
  const listed = runGit(['for-each-ref', '--format=%(refname)', 'refs/sangam/'], root)
  return listed.code === 0 ? listed.stdout.split('\n').filter((line) => line !== '') : []
}
