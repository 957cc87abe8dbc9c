import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { taskId } from '../../core/lanes/lane-name.ts'
import { isLockStale, nextSyncStep } from '../../core/lanes/sync-ladder.ts'
import { checkValidationReport, taskFileText, taskPrompt } from '../../core/lanes/task-file.ts'
import { describeDirt, onlyStaged } from '../../core/lanes/worktree-dirt.ts'
import { refuseSecret } from '../../core/secrets/free-text-rule.ts'
import { gitOutput, gitOutputOrNull, runGit } from '../../git/git.ts'
import { findGitLayout } from '../../git/git-layout.ts'
import {
  beginIntegration,
  endLaneTask,
  type IntegrationJournal,
  insertLaneTask,
  type LaneRow,
  readLane,
  readLanes,
  readLaneTask,
  updateLane,
} from '../../store/lanes/lane-table.ts'
import type { LockHolder } from './integration-lock.ts'
import {
  changesNothing,
  commitAll,
  commitOfIndex,
  dirtyFiles,
  headOf,
  isAncestor,
  mergeBase,
  refCommit,
  resetHard,
  unsafeGitState,
  worktreeOfBranch,
  worktreeState,
  writeRefs,
} from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import { type LaneWorld, laneTaskFolder } from './lane-world.ts'
import { requireMainInStep } from './main-in-step.ts'
import { normaliseLanes, restoreOwnWork } from './normalise-lanes.ts'
import { baseRef, saveLaneWork, snapshotRef } from './recovery-refs.ts'

export const syncOutcomes = [
  'already-synced',
  'caught-up',
  'no-changes',
  'published-direct',
  'published-merge',
  'task-started',
  'published-task',
] as const
export type SyncOutcome = (typeof syncOutcomes)[number]

/** What `sangam sync` answers (`--json`). */
export interface SyncResult {
  readonly lane: string
  readonly outcome: SyncOutcome
  /** Main's commit after the sync. */
  readonly main: string
  readonly task: { readonly id: string; readonly file: string; readonly validationFile: string } | null
  /** How a started task reached the lane: `tmux:%3`, `printed` (a human's lane), or null. */
  readonly channel: string | null
  /** A human's lane (`--no-agent`): the task itself, for that human to do. */
  readonly taskText: string | null
  /** A stale lock taken over (`--takeover`): whose, and the refs its work was saved under. */
  readonly takeover: {
    readonly from: string
    readonly reason: string
    readonly backupRefs: readonly string[]
  } | null
}

export interface SyncInput {
  /** Where sync runs: inside a lane's worktree. */
  readonly cwd: string
  readonly takeover?: { readonly reason: string } | undefined
  /** `--accept-main <commit>`: a person accepts a main moved outside sangam (team-lanes.ts applies it). */
  readonly acceptMain?: string | undefined
}

/**
 * `sangam sync`: moves the lane `cwd` is in to its next safe state (core/lanes/sync-ladder.ts),
 * after putting right any integration a crash interrupted. Only this lane and main ever move; a
 * refusal (a SangamError LANE_REFUSED) leaves both as they were and says what to do next.
 */
export async function syncLane(world: LaneWorld, input: SyncInput): Promise<SyncResult> {
  // Recorded in the log, shown to the lock's owner and sent to the team server: no secret.
  if (input.takeover !== undefined) refuseSecret('the reason for the takeover', input.takeover.reason)
  await normaliseLanes(world, { startup: false })
  let lane = laneAt(world, input.cwd)
  if (lane.state === 'integrating')
    throw laneRefused(
      'sync-in-progress',
      `another sangam sync of lane ${lane.name} is running (pid ${lane.pid ?? '?'})`,
      'wait for it to finish, then run sangam sync again if it did not say what you needed',
    )
  // Main is read before anything is taken over or moved: a main moved outside sangam is refused first.
  const main = mainCommit(world)
  requireMainInStep(world, main)
  const takeover = input.takeover === undefined ? null : await takeOver(world, lane, input.takeover.reason)
  lane = readLane(world.db, lane.name) ?? lane
  const holder = await world.lock.current()
  if (holder !== null && holder.lane === lane.name) await world.lock.heartbeat(holder)
  const { head, dirty } = worktreeState(lane.worktree)
  // One merge-base answers both ancestries: it is main when main is in head, head when head is in main.
  const base = mergeBase(world.root, main, head)
  const headInMain = base === head
  const step = nextSyncStep(lane.name, {
    head,
    main,
    dirty,
    mainInHead: base === main,
    headInMain,
    // The ladder reads it only for a clean lane main does not already hold.
    emptyChange: !dirty && !headInMain && base !== null && changesNothing(world.root, base, head),
    lockLane: holder?.lane ?? null,
    activeTask: lane.task,
  })
  // Main after the sync: as read above, unless this sync moved it (`extra.main`: what it published).
  const result = (outcome: SyncOutcome, extra: Partial<SyncResult> = {}): SyncResult => {
    const answer: SyncResult = {
      lane: lane.name,
      outcome,
      main,
      task: null,
      channel: null,
      taskText: null,
      takeover,
      ...extra,
    }
    world.record(`sync.${outcome}`, lane.name, { main: answer.main, task: answer.task?.id ?? null })
    return answer
  }
  switch (step.kind) {
    case 'publish-task': {
      return result('published-task', await publishTask(world, lane, step.task))
    }
    case 'already-synced':
      if (lane.base !== main) updateLane(world.db, lane.name, { base: main }, world.clock.now())
      return result('already-synced')
    case 'catch-up':
      await catchUp(world, lane, main, step.reset)
      return result('caught-up')
    case 'no-changes':
      return result('no-changes')
    case 'busy':
      throw busy(world, lane, await world.lock.current())
    case 'publish-direct':
      return result('published-direct', { main: await publishDirect(world, lane, { main, head, dirty }) })
    case 'merge':
      return await mergeOrStartTask(world, lane, { main, head, dirty }, result)
  }
}

/** The lane whose worktree holds `cwd`, or a refusal naming the lanes there are. */
export function laneAt(world: LaneWorld, cwd: string): LaneRow {
  // The worktree's top level from its `.git` (git-layout.ts), asking git only where that is unusual.
  const layout = findGitLayout(cwd)
  const top = layout === null ? runGit(['rev-parse', '--show-toplevel'], cwd) : null
  const root = layout !== null ? layout.worktreeRoot : top?.code === 0 ? top.stdout.trim() : null
  const lanes = readLanes(world.db)
  const lane = lanes.find((row) => row.worktree === root)
  if (lane !== undefined) return lane
  throw laneRefused(
    'not-a-lane',
    `${cwd} is not inside a lane's worktree${lanes.length === 0 ? ' (this project has no lanes yet)' : ` (lanes: ${lanes.map((row) => row.name).join(', ')})`}`,
    'run sangam sync inside a lane (sangam lane <name> creates one and says where it is)',
  )
}

function mainCommit(world: LaneWorld): string {
  return gitOutput(['rev-parse', `refs/heads/${world.mainBranch}^{commit}`], world.root)
}

async function catchUp(world: LaneWorld, lane: LaneRow, main: string, reset: boolean): Promise<void> {
  if (reset) {
    // Its commits change nothing, but they are its own: saved before the reset.
    await saveLaneWork(lane.worktree, {
      kind: 'backups',
      lane: lane.name,
      reason: 'catch-up',
      now: world.clock.now(),
    })
    resetHard(lane.worktree, main)
  } else {
    const merged = runGit(['merge', '-q', '--ff-only', main], lane.worktree)
    if (merged.code !== 0)
      throw laneRefused(
        'lane-unsafe-state',
        `lane ${lane.name} could not fast-forward: ${merged.stderr.trim()}`,
        'run sangam status; fix the lane worktree, then sync again',
      )
  }
  updateLane(world.db, lane.name, { base: main }, world.clock.now())
}

function busy(world: LaneWorld, lane: LaneRow, holder: LockHolder | null) {
  const now = world.clock.now()
  const owner = holder === null ? 'another lane' : `lane ${holder.lane} (${holder.owner})`
  const what = holder?.task ? `its semantic task ${holder.task}` : 'a publish'
  const stale =
    holder !== null && isLockStale(holder.heartbeatAt, now, world.settings.lockStaleMinutes * 60_000)
  const age = holder === null ? '' : `, ${Math.round((now - holder.since) / 60_000)} min ago`
  return laneRefused(
    'integration-busy',
    `integration busy: ${owner} holds the integration lock for ${what}${age}`,
    stale
      ? `the lock has been silent for over ${world.settings.lockStaleMinutes} min: ask ${holder?.owner}, or take it over with sangam sync --takeover --reason "…" (their work is saved under refs/sangam/takeovers/ first)`
      : `keep lane ${lane.name} as it is and run sangam sync again once ${holder?.lane ?? 'it'} has published; nothing was moved`,
  )
}

async function takeOver(world: LaneWorld, lane: LaneRow, reason: string) {
  const holder = await world.lock.current()
  if (holder === null || holder.lane === lane.name)
    throw laneRefused(
      'lock-not-held',
      'the integration lock is not held by another lane: there is nothing to take over',
      'run sangam sync without --takeover',
    )
  const now = world.clock.now()
  if (!isLockStale(holder.heartbeatAt, now, world.settings.lockStaleMinutes * 60_000))
    throw laneRefused(
      'lock-not-stale',
      `lane ${holder.lane} (${holder.owner}) showed a sign of life ${Math.round((now - holder.heartbeatAt) / 60_000)} min ago; a lock may be taken over after ${world.settings.lockStaleMinutes} min of silence`,
      `ask ${holder.owner} to finish with sangam sync in lane ${holder.lane}, or wait`,
    )
  const owner = readLane(world.db, holder.lane)
  const backupRefs =
    owner !== null && existsSync(owner.worktree)
      ? await saveLaneWork(owner.worktree, { kind: 'takeovers', lane: owner.name, reason: 'lock', now })
      : []
  if (owner !== null && owner.task !== null) endLaneTask(world.db, owner.task, 'restored', now)
  if (owner !== null && owner.state !== 'integrating')
    updateLane(world.db, owner.name, { state: 'idle', task: null, journal: null, pid: null }, now)
  await world.lock.takeOver({ lane: lane.name, owner: world.human, reason })
  world.record('lock.taken-over', lane.name, {
    from: holder.lane,
    fromOwner: holder.owner,
    task: holder.task,
    reason,
    by: world.human,
    backupRefs,
  })
  // The taker holds the lock only for its own sync: free it again unless that sync keeps it.
  const mine = await world.lock.current()
  if (mine !== null && mine.lane === lane.name) await world.lock.release(mine)
  return { from: holder.lane, reason, backupRefs }
}

/** Refuses while the worktree that has main checked out holds uncommitted files or a git operation. */
function requireMainPublishable(world: LaneWorld): void {
  const checkedOut = worktreeOfBranch(world.root, world.mainBranch)
  if (checkedOut === null) return
  const unsafe = unsafeGitState(checkedOut)
  if (unsafe !== null)
    throw laneRefused(
      'main-dirty',
      `the ${world.mainBranch} worktree ${checkedOut} has an unfinished git operation (${unsafe})`,
      `finish or abort it there (git merge --abort, git rebase --abort), then run sangam sync again`,
    )
  const files = dirtyFiles(checkedOut)
  if (files.length === 0) return
  const what = `the ${world.mainBranch} worktree ${checkedOut} has uncommitted or untracked files (${describeDirt(files)}); publishing would have to overwrite them`
  // Staged changes that are exactly another commit's files: a move of main the guard refused
  // after git had already rewritten the worktree (an older guard, or one that could not undo it).
  const left = onlyStaged(files) ? commitOfIndex(checkedOut) : null
  if (left !== null)
    throw laneRefused(
      'main-dirty',
      `${what}. The staged changes are exactly commit ${left.slice(0, 12)}'s files: what a \`git reset --hard\`, \`merge\` or \`checkout\` of ${world.mainBranch} leaves when the guard refuses to move ${world.mainBranch} after git rewrote the files`,
      `put the worktree back as ${world.mainBranch} is: git -C ${checkedOut} reset --hard (it drops only those staged changes, which ${left.slice(0, 12)} still holds; untracked files stay), then run sangam sync again; nothing was moved`,
    )
  throw laneRefused(
    'main-dirty',
    what,
    `commit them in a lane, or stash or remove them in ${checkedOut}, then run sangam sync again; nothing was moved`,
  )
}

function requireLaneSafe(lane: LaneRow): void {
  const unsafe = unsafeGitState(lane.worktree)
  if (unsafe !== null)
    throw laneRefused(
      'lane-unsafe-state',
      `lane ${lane.name} has an unfinished git operation (${unsafe})`,
      'finish or abort it in the lane (git merge --abort, git rebase --abort), then run sangam sync again',
    )
}

/**
 * Begins an integration: the lane marked integrating (with its journal and our pid) before the
 * lock is asked for, so a crash at any point leaves a lane the normalisation can find.
 */
async function begin(world: LaneWorld, lane: LaneRow, journal: IntegrationJournal): Promise<LockHolder> {
  if (!beginIntegration(world.db, lane.name, journal.resume, journal, world.pid, world.clock.now()))
    throw laneRefused(
      'sync-in-progress',
      `another sangam sync of lane ${lane.name} began meanwhile`,
      'wait for it to finish, then run sangam sync again',
    )
  const answer = await world.lock.acquire({ lane: lane.name, owner: lane.owner, task: journal.task })
  if (answer.granted || answer.holder.lane === lane.name) {
    world.fault('locked')
    return answer.holder
  }
  updateLane(world.db, lane.name, { state: journal.resume, journal: null, pid: null }, world.clock.now())
  throw busy(world, lane, answer.holder)
}

function setJournal(world: LaneWorld, lane: LaneRow, journal: IntegrationJournal): void {
  updateLane(world.db, lane.name, { journal }, world.clock.now())
}

/** Gives the lane back as the sync found it, frees the lock, and refuses. */
async function undo(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  journal: IntegrationJournal,
  refusal: Error,
): Promise<never> {
  restoreOwnWork(world, lane.worktree, journal.task, journal.headBefore, journal.snapshotted)
  await world.lock.release(holder)
  updateLane(world.db, lane.name, { state: 'idle', journal: null, pid: null }, world.clock.now())
  throw refusal
}

function checkCandidate(world: LaneWorld, lane: LaneRow): Error | null {
  const command = world.settings.checkCommand
  if (command === '') return null
  const run = world.runCheck(command, lane.worktree)
  world.record('check.ran', lane.name, { command, ok: run.ok, exitCode: run.exitCode })
  if (run.ok) return null
  return laneRefused(
    'check-failed',
    `the project's check \`${command}\` failed on lane ${lane.name}'s candidate (exit ${run.exitCode ?? 'signal'}):\n${run.tail.trimEnd()}`,
    `fix it in lane ${lane.name} (run \`${command}\` there), commit, then run sangam sync again; ${world.mainBranch} was not moved`,
  )
}

/**
 * Moves main (under the lock) and records the lane as built on it. A publisher that refuses (the
 * team remote's main moved, the remote unreachable) moved nothing: the lane is given back as the
 * sync found it and the lock freed, as for any other refusal.
 */
async function publish(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  refused: (error: Error) => Promise<never>,
  journal: IntegrationJournal,
  from: string,
  to: string,
): Promise<void> {
  setJournal(world, lane, { ...journal, publishFrom: from, publishTo: to })
  world.fault('before-publish')
  try {
    await world.publisher.publish({ from, to, token: holder.token })
  } catch (error) {
    if (mainCommit(world) !== from) throw error
    await refused(error as Error)
  }
  world.fault('published')
}

async function finish(world: LaneWorld, lane: LaneRow, holder: LockHolder, base: string): Promise<void> {
  await world.lock.release(holder)
  world.fault('released')
  updateLane(
    world.db,
    lane.name,
    { state: 'idle', task: null, base, journal: null, pid: null },
    world.clock.now(),
  )
}

/** The facts a sync read at its start: main, the lane's HEAD, and whether it has uncommitted work. */
interface SyncStart {
  readonly main: string
  readonly head: string
  readonly dirty: boolean
}

/** Publishes a lane built on the latest main; answers main's new commit. */
async function publishDirect(world: LaneWorld, lane: LaneRow, start: SyncStart): Promise<string> {
  const { main, dirty } = start
  requireMainPublishable(world)
  requireLaneSafe(lane)
  const journal: IntegrationJournal = {
    kind: 'direct',
    resume: 'idle',
    headBefore: start.head,
    snapshotted: dirty,
    task: null,
    publishFrom: null,
    publishTo: null,
  }
  const holder = await begin(world, lane, journal)
  const candidate = dirty ? commitAll(lane.worktree, `sangam direct publish: ${lane.name}`) : start.head
  world.fault('snapshot')
  if (mainCommit(world) !== main)
    await undo(
      world,
      lane,
      holder,
      journal,
      laneRefused('main-moved', `${world.mainBranch} moved while this sync ran`, 'run sangam sync again'),
    )
  const failed = checkCandidate(world, lane)
  if (failed !== null) await undo(world, lane, holder, journal, failed)
  await publish(
    world,
    lane,
    holder,
    (error) => undo(world, lane, holder, journal, error),
    journal,
    main,
    candidate,
  )
  await finish(world, lane, holder, candidate)
  return candidate
}

async function mergeOrStartTask(
  world: LaneWorld,
  lane: LaneRow,
  start: SyncStart,
  result: (outcome: SyncOutcome, extra?: Partial<SyncResult>) => SyncResult,
): Promise<SyncResult> {
  const { main, dirty } = start
  requireMainPublishable(world)
  requireLaneSafe(lane)
  const task = taskId(lane.name, world.clock.now())
  const journal: IntegrationJournal = {
    kind: 'merge',
    resume: 'idle',
    headBefore: start.head,
    snapshotted: dirty,
    task,
    publishFrom: null,
    publishTo: null,
  }
  const holder = await begin(world, lane, journal)
  const snapshot = dirty ? commitAll(lane.worktree, `sangam snapshot: ${lane.name} ${task}`) : start.head
  writeRefs(world.root, [
    [snapshotRef(task), snapshot],
    [baseRef(task), main],
  ])
  world.fault('snapshot')
  const merged = runGit(
    // --no-verify: as for its snapshot commit, sangam's own merge in the lane (never on main).
    ['merge', '-q', '--no-ff', '--no-edit', '--no-verify', '-m', `sangam merge: ${lane.name} ${task}`, main],
    lane.worktree,
  )
  const after = worktreeState(lane.worktree)
  const candidate = after.head
  const clean =
    merged.code === 0 &&
    unsafeGitState(lane.worktree) === null &&
    !after.dirty &&
    bothSidesIn(world, candidate, snapshot, main) &&
    runGit(['diff', '--check', main, candidate], world.root).code === 0
  world.fault('merged')
  if (clean) {
    const failed = checkCandidate(world, lane)
    if (failed !== null) await undo(world, lane, holder, journal, failed)
    await publish(
      world,
      lane,
      holder,
      (error) => undo(world, lane, holder, journal, error),
      journal,
      main,
      candidate,
    )
    await finish(world, lane, holder, candidate)
    return result('published-merge', { main: candidate })
  }
  if (unsafeGitState(lane.worktree) === 'MERGE_HEAD') runGit(['merge', '--abort'], lane.worktree)
  world.record('merge.fallback', lane.name, {
    task,
    reason: merged.code !== 0 ? 'conflict' : 'merge not clean (diff --check or ancestry)',
  })
  return await startTask(world, lane, holder, journal, { task, main, snapshot }, result)
}

/**
 * Whether `snapshot` and `main` are both ancestors of the merge `candidate`: one `rev-parse` of
 * its two parents (what `merge --no-ff` makes), else the two ancestry questions.
 */
function bothSidesIn(world: LaneWorld, candidate: string, snapshot: string, main: string): boolean {
  const parents = gitOutputOrNull(['rev-parse', `${candidate}^1`, `${candidate}^2`], world.root)
  if (parents === `${snapshot}\n${main}`) return true
  return isAncestor(world.root, main, candidate) && isAncestor(world.root, snapshot, candidate)
}

async function startTask(
  world: LaneWorld,
  lane: LaneRow,
  holder: LockHolder,
  journal: IntegrationJournal,
  input: { task: string; main: string; snapshot: string },
  result: (outcome: SyncOutcome, extra?: Partial<SyncResult>) => SyncResult,
): Promise<SyncResult> {
  const folder = laneTaskFolder(lane.worktree)
  mkdirSync(folder, { recursive: true })
  const file = join(folder, `${input.task}.md`)
  const validationFile = join(folder, `${input.task}.validation.md`)
  const from =
    lane.base !== null && isAncestor(world.root, lane.base, input.snapshot)
      ? lane.base
      : gitOutput(['merge-base', input.main, input.snapshot], world.root)
  const text = taskFileText({
    task: input.task,
    lane: lane.name,
    mainBranch: world.mainBranch,
    base: input.main,
    snapshot: input.snapshot,
    lastSeenMain: lane.base,
    validationFile,
    snapshotDiff: gitOutput(['diff', from, input.snapshot], world.root),
    checkCommand: world.settings.checkCommand === '' ? null : world.settings.checkCommand,
  })
  resetHard(lane.worktree, input.main)
  world.fault('reset')
  writeFileSync(file, text)
  const now = world.clock.now()
  insertLaneTask(world.db, {
    id: input.task,
    lane: lane.name,
    file,
    validationFile,
    snapshot: input.snapshot,
    base: input.main,
    startedAt: now,
  })
  const prompt = taskPrompt({ lane: lane.name, task: input.task, file, validationFile })
  const delivery =
    lane.agent === null
      ? { delivered: true as const, channel: 'printed' }
      : await world.courier.deliver({ lane: lane.name, worktree: lane.worktree, prompt })
  if (!delivery.delivered) {
    const reason = delivery.reason
    endLaneTask(world.db, input.task, 'restored', world.clock.now())
    await undo(
      world,
      lane,
      holder,
      journal,
      laneRefused(
        'task-undeliverable',
        `git could not merge lane ${lane.name} cleanly and its semantic task could not reach its agent: ${reason}. The lane was restored as it was; ${world.mainBranch} was not moved`,
        `start the lane's agent with sangam lane ${lane.name} from inside tmux (so sangam can hand it the task), or re-create it with --no-agent to do the task yourself, then run sangam sync again`,
      ),
    )
    throw new Error('unreachable: undo always throws')
  }
  await world.lock.heartbeat({ ...holder, task: input.task })
  updateLane(
    world.db,
    lane.name,
    { state: 'task', task: input.task, base: input.main, journal: null, pid: null },
    world.clock.now(),
  )
  world.fault('task-started')
  world.record('task.started', lane.name, { task: input.task, channel: delivery.channel })
  return result('task-started', {
    task: { id: input.task, file, validationFile },
    channel: delivery.channel,
    taskText: lane.agent === null ? text : null,
  })
}

/** The publish checks of an active task, then main moves to the lane's candidate. */
async function publishTask(world: LaneWorld, lane: LaneRow, id: string): Promise<Partial<SyncResult>> {
  const task = readLaneTask(world.db, id)
  const sameLane = (what: string) =>
    `stay in lane ${lane.name}: ${what}, then run sangam sync again (this is lane ${lane.name}'s own unfinished task ${id}; do not move ${world.mainBranch} by hand)`
  const holder = await world.lock.current()
  if (holder !== null && holder.lane !== lane.name) throw busy(world, lane, holder)
  if (task === null || !existsSync(task.file))
    throw laneRefused(
      'task-file-missing',
      `the task file of active task ${id} is missing: ${task?.file ?? '(no record)'}`,
      'run sangam status; restarting sangam up restores the lane from its snapshot (backed up first)',
    )
  const snapshot = refCommit(world.root, snapshotRef(id))
  const base = refCommit(world.root, baseRef(id))
  if (snapshot === null || base === null)
    throw laneRefused(
      'task-refs-missing',
      `the ${snapshot === null ? 'snapshot' : 'base'} ref of active task ${id} is missing (${snapshot === null ? snapshotRef(id) : baseRef(id)})`,
      'run sangam status; restarting sangam up restores the lane (backed up first)',
    )
  requireLaneSafe(lane)
  const dirt = dirtyFiles(lane.worktree)
  if (dirt.length > 0)
    throw laneRefused(
      'task-dirty',
      `lane ${lane.name} has uncommitted changes (${describeDirt(dirt)})`,
      sameLane('commit the union (the worktree must be clean)'),
    )
  const candidate = headOf(lane.worktree)
  if (candidate === base)
    throw laneRefused(
      'task-no-candidate',
      `task ${id} has no candidate commit: the lane is still the base ${base.slice(0, 12)}`,
      sameLane(
        "implement the snapshot's behaviour on the latest main and commit it (an explicit no-op commit if main already covers it)",
      ),
    )
  if (!existsSync(task.validationFile))
    throw laneRefused(
      'validation-missing',
      `the validation report is missing: ${task.validationFile}`,
      sameLane(
        `write it at ${task.validationFile}: what you checked, the commands you ran and their results`,
      ),
    )
  const report = checkValidationReport(readFileSync(task.validationFile, 'utf8'))
  if (!report.ok)
    throw laneRefused(
      'validation-incomplete',
      `the validation report ${task.validationFile} ${report.problem}`,
      sameLane('complete the report'),
    )
  requireMainPublishable(world)
  const main = mainCommit(world)
  if (!isAncestor(world.root, main, candidate))
    throw laneRefused(
      'main-moved',
      `${world.mainBranch} moved past this task's base (${main.slice(0, 12)} is not in the candidate)`,
      sameLane(`merge ${world.mainBranch} into the lane (git merge ${world.mainBranch}), commit`),
    )
  const journal: IntegrationJournal = {
    kind: 'task-publish',
    resume: 'task',
    headBefore: candidate,
    snapshotted: false,
    task: id,
    publishFrom: null,
    publishTo: null,
  }
  // The task keeps the lock through a failed check: it is still this lane's turn.
  const held = await begin(world, lane, journal)
  const failed = checkCandidate(world, lane)
  if (failed !== null) {
    updateLane(world.db, lane.name, { state: 'task', journal: null, pid: null }, world.clock.now())
    throw failed
  }
  const keepTask = async (error: Error): Promise<never> => {
    updateLane(world.db, lane.name, { state: 'task', journal: null, pid: null }, world.clock.now())
    throw error
  }
  await publish(world, lane, held, keepTask, journal, main, candidate)
  endLaneTask(world.db, id, 'published', world.clock.now())
  await finish(world, lane, held, candidate)
  return { main: candidate, task: { id, file: task.file, validationFile: task.validationFile } }
}
