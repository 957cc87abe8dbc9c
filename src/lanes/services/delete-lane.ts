import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { runGit } from '../../git/git.ts'
import { worktreeChanges } from '../../git/worktree-changes.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { stamp } from '../core/lane-name.ts'
import { deleteLaneRow, readLane, updateLane } from '../store/lane-table.ts'
import { headOf, isDirty, must, refCommit, unsafeGitState, worktreeOfBranch, writeRef } from './lane-git.ts'
import { laneNameInput } from './lane-name-input.ts'
import { laneRefused } from './lane-refused.ts'
import { type LaneWorld, laneWorktreePath } from './lane-world.ts'
import { saveLaneWork } from './recovery-refs.ts'

/** What `sangam delete` answers (`--json`). */
export interface DeletedLane {
  readonly lane: string
  readonly manifest: string
  readonly backupRefs: readonly string[]
  /** sangam's own files removed with the worktree (hook files, `.mcp.json`, task files), D310. */
  readonly sangamFiles: readonly string[]
}

/**
 * Retires a lane: refused while it holds the lock, has an active task, a live agent (its tmux
 * pane), an unfinished git operation, or ignored files other than sangam's own; otherwise its
 * HEAD and any uncommitted work are saved under refs/sangam/deleted/, a manifest naming them and
 * sangam's own files is written under `.sangam/deleted/`, and the worktree and branch are removed.
 */
export async function deleteLane(
  world: LaneWorld,
  typed: string,
  paneAlive: (pane: string) => boolean,
): Promise<DeletedLane> {
  const name = laneNameInput(typed)
  const lane = readLane(world.db, name)
  const worktree = lane?.worktree ?? laneWorktreePath(world.root, name)
  const branch = lane?.branch ?? `lane/${name}`
  const branchCommit = refCommit(world.root, `refs/heads/${branch}`)
  if (lane === null && branchCommit === null && !existsSync(worktree))
    throw laneRefused(
      'unknown-lane',
      `there is no lane ${name}: no record, worktree or branch`,
      'sangam status lists the lanes',
    )
  const holder = await world.lock.current()
  if (holder !== null && holder.lane === name)
    throw laneRefused(
      'lane-owns-lock',
      `lane ${name} holds the integration lock${holder.task ? ` for task ${holder.task}` : ''}`,
      `finish that sync first (sangam sync in lane ${name}), or take the lock over from another lane`,
    )
  if (lane?.task)
    throw laneRefused(
      'lane-has-task',
      `lane ${name} has an active sync task ${lane.task}`,
      `finish it (sangam sync in lane ${name}) before deleting the lane`,
    )
  if (lane?.pane && paneAlive(lane.pane))
    throw laneRefused(
      'lane-agent-live',
      `lane ${name}'s agent still runs in tmux pane ${lane.pane}`,
      'close that agent (exit it in its tmux window), then delete the lane',
    )
  const checkedOut = worktreeOfBranch(world.root, branch)
  if (checkedOut !== null && checkedOut !== worktree)
    throw laneRefused(
      'lane-branch-elsewhere',
      `branch ${branch} is checked out in another worktree: ${checkedOut}`,
      `remove that worktree first (git worktree remove ${checkedOut})`,
    )
  const present = existsSync(worktree) && checkedOut === worktree
  // sangam's own files in the lane (its hook files, .mcp.json, instructions) go with it, named in
  // the manifest; they never block the delete. A user's own edit in one makes it theirs (D310).
  const ownFiles: string[] = []
  if (present) {
    const unsafe = unsafeGitState(worktree)
    if (unsafe !== null)
      throw laneRefused(
        'lane-unsafe-state',
        `lane ${name} has an unfinished git operation (${unsafe})`,
        'resolve or abort it in the lane first',
      )
    const files = worktreeFilesOf(worktree)
    ownFiles.push(...files.own)
    const ignored = files.ignored
    if (ignored.length > 0)
      throw laneRefused(
        'lane-ignored-files',
        `lane ${name} holds ignored files sangam will not delete: ${ignored.slice(0, 5).join(', ')}${ignored.length > 5 ? `, and ${ignored.length - 5} more` : ''}`,
        'move or remove them yourself, then delete the lane',
      )
  }
  const now = world.clock.now()
  if (lane !== null) updateLane(world.db, name, { state: 'deleting' }, now)
  const backupRefs: string[] = []
  if (present)
    backupRefs.push(...(await saveLaneWork(worktree, { kind: 'deleted', lane: name, reason: 'lane', now })))
  else if (branchCommit !== null) {
    const ref = `refs/sangam/deleted/${stamp(now)}/${name}/lane/head`
    writeRef(world.root, ref, branchCommit)
    backupRefs.push(ref)
  }
  const folder = join(world.root, '.sangam', 'deleted')
  mkdirSync(folder, { recursive: true })
  const manifest = join(folder, `${stamp(now)}-${name}.json`)
  writeFileSync(
    manifest,
    `${JSON.stringify({ deletedAt: new Date(now).toISOString(), lane: name, branch, worktree, head: present ? headOf(worktree) : branchCommit, dirty: present && isDirty(worktree), backupRefs, sangamFiles: ownFiles, record: lane }, null, 2)}\n`,
  )
  if (present) must(runGit(['worktree', 'remove', '--force', worktree], world.root), 'worktree remove')
  if (branchCommit !== null) must(runGit(['branch', '-D', branch], world.root), 'branch -D')
  runGit(['worktree', 'prune'], world.root)
  deleteLaneRow(world.db, name)
  world.record('lane.deleted', name, { manifest, backupRefs })
  return { lane: name, manifest, backupRefs, sangamFiles: ownFiles }
}

/** The worktree's ignored files but sangam's own, and sangam's own (changed or ignored). */
function worktreeFilesOf(worktree: string): { ignored: string[]; own: readonly string[] } {
  const changes = worktreeChanges(worktree, { ignored: true })
  if (changes === null)
    throw new SangamError(ErrorCode.GitFailed, `git status --ignored failed in ${worktree}`)
  return {
    ignored: changes.ignored.filter((path) => relative(worktree, join(worktree, path)) !== ''),
    own: changes.own,
  }
}
