import { readCodexEndpoint, recordCodexEndpoint } from '../../agents/codex/store/codex-endpoint-table.ts'
import { loadMachineId } from '../../config/machine-id.ts'
import { recordPane } from '../../delivery/store/delivery-ledger.ts'
import { headBranch } from '../../git/git-layout.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import { checkEdit } from '../../leases/services/edit.ts'
import { readLeaseSettings } from '../../leases/services/settings.ts'
import { hasLeaseTables } from '../../leases/store/lease-table.ts'
import { chooseLeaseArbiter } from '../../project/services/lease-arbiter.ts'
import { recordPresence } from '../../room/services/presence.ts'
import { readSessionPresence } from '../../room/store/presence-table.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Db } from '../../store/database.ts'
import {
  describeStep,
  isLastingFailure,
  type KeptWork,
  parseKeptWork,
  shortPath,
  type WorkSession,
} from './kept-work.ts'
import {
  claimEntry,
  finishEntry,
  type JournalEntry,
  journalEntries,
  leaveNotice,
  putBack,
  readEntry,
  releaseAbandonedClaims,
} from './work-journal.ts'

/**
 * Does the hook work kept in the journal (`work-journal.ts`): the daemon's `HookWorkService` and,
 * with no daemon running, the next agent hook after its answer. Each step is claimed first, so it
 * is done once however many drainers look; each is done as of the time its hook ran, and dropped
 * when something later made it moot:
 *
 * - an auto-lease is taken now, through the arbiter (the team server while attached), deciding the
 *   edit again. If someone else's lease now covers the file, theirs stands (it was granted first at
 *   the arbiter), and the session is left a notice its next hook carries (D321). Dropped once the
 *   auto-lease would have expired anyway, or once the session ended (its leases went with it);
 * - presence, a Codex endpoint and a tmux pane are recorded with their hook's time, unless a later
 *   one of the same session is already there;
 * - a session end's release is done (the server's when attached);
 * - an owed brief is left for its session's next prompt (hooks/), and dropped once it ended.
 *
 * A step that fails again (server still slow, store still locked) waits, tried again later with a
 * growing pause (at most 10 s).
 */
export interface DrainOptions {
  /** The project's journal, `hookWorkDir(projectDir)`. */
  readonly dir: string
  /** The project's data directory: whether the replica is attached to a team server. */
  readonly projectDir: string
  readonly db: Db
  readonly sangamHome: string
  readonly clock: Clock
  /** The drainer's pid: claims carry it. */
  readonly pid: number
  readonly isAlive: (pid: number) => boolean
  /** How long one step may wait for the server or the store's write lock. */
  readonly timeoutMs: number
  /** No step starts after this (ms epoch): a hook drains only within its budget. */
  readonly deadline?: number | undefined
  /** Stop at the first step that fails (a hook does not spend its budget on a server still down). */
  readonly stopAtFailure?: boolean | undefined
  /** Try steps still in their pause too (the server just came back). */
  readonly ignorePauses?: boolean | undefined
  readonly log: Logger
}

export interface DrainReport {
  readonly done: number
  /** Made moot by something later (a newer presence, an expired auto-lease, an ended session). */
  readonly dropped: number
  /** Auto-leases recorded late that met someone else's lease; their sessions were left a notice. */
  readonly conflicts: number
  /** Still in the journal: failed again, not yet due, or owed to a session's next prompt. */
  readonly waiting: number
}

/** An owed brief older than this is dropped: the session has long been told what is new. */
const briefLifetimeMs = 24 * 60 * 60 * 1000
const maxPauseMs = 10_000

type StepResult =
  | { readonly kind: 'done'; readonly note?: string | undefined }
  | { readonly kind: 'dropped'; readonly why: string }
  | { readonly kind: 'conflict'; readonly text: string }
  | { readonly kind: 'failed'; readonly why: string }

export async function drainHookWork(options: DrainOptions): Promise<DrainReport> {
  const { dir, clock, log } = options
  const before = journalEntries(dir)
  releaseAbandonedClaims(dir, before, options.isAlive)
  const entries = journalEntries(dir).filter((entry) => entry.type !== 'notice')
  const waiting = entries.flatMap((entry) => {
    const work = entry.claimedBy === null ? parseKeptWork(readEntry(dir, entry.name)) : null
    return work === null ? [] : [{ entry, work }]
  })
  const report = { done: 0, dropped: 0, conflicts: 0, waiting: 0 }
  let stopped = false
  for (const { entry, work } of waiting) {
    const now = clock.now()
    const owedToPrompt = work.step.kind === 'brief' && !briefIsMoot(options.db, work, now)
    const pausing = work.notBefore > now && options.ignorePauses !== true
    if (stopped || owedToPrompt || pausing || past(options.deadline, now)) {
      report.waiting += 1
      continue
    }
    const claimed = claimEntry(dir, entry, options.pid)
    if (claimed === null) continue
    const result = await doStep(options, work, waiting, entry)
    switch (result.kind) {
      case 'done':
        report.done += 1
        log.info('kept hook work done', {
          step: describeStep(work.step),
          event: work.event,
          note: result.note,
        })
        finishEntry(dir, claimed)
        break
      case 'dropped':
        report.dropped += 1
        log.info('kept hook work dropped', { step: describeStep(work.step), why: result.why })
        finishEntry(dir, claimed)
        break
      case 'conflict':
        report.conflicts += 1
        log.warn('an auto-lease recorded late met another lease', { session: work.session.sessionId })
        leaveNotice(dir, { session: work.session, at: clock.now(), text: result.text }, options.pid)
        finishEntry(dir, claimed)
        break
      case 'failed': {
        report.waiting += 1
        const attempts = work.attempts + 1
        const pause = Math.min(maxPauseMs, 500 * 2 ** Math.min(attempts, 10))
        log.debug('kept hook work still not done', { step: describeStep(work.step), why: result.why })
        putBack(dir, claimed, { ...work, attempts, notBefore: clock.now() + pause })
        if (options.stopAtFailure === true) stopped = true
        break
      }
    }
  }
  return report
}

async function doStep(
  options: DrainOptions,
  work: KeptWork,
  waiting: readonly { readonly entry: JournalEntry; readonly work: KeptWork }[],
  entry: JournalEntry,
): Promise<StepResult> {
  const { db, clock } = options
  const { step, session, at } = work
  try {
    switch (step.kind) {
      case 'auto-lease': {
        if (sessionEnded(db, session, at)) return { kind: 'dropped', why: 'the session ended since' }
        const released = waiting.some(
          (other) =>
            other.entry.key === entry.key &&
            other.entry.stamp > entry.stamp &&
            other.work.step.kind === 'release',
        )
        if (released) return { kind: 'dropped', why: "the session's end releases it" }
        if (!hasLeaseTables(db)) return { kind: 'dropped', why: 'this store has no leases' }
        const ttlMs = readLeaseSettings(db).autoLeaseTtlMs
        if (clock.now() - at >= ttlMs) return { kind: 'dropped', why: 'it would have expired by now' }
        return await lateAutoLease(options, work, step)
      }
      case 'presence': {
        const current = readSessionPresence(db, session.vendor, session.sessionId)
        if (current !== null && current.updatedAt >= at)
          return { kind: 'dropped', why: 'a later one is recorded' }
        recordPresence(
          db,
          {
            vendor: session.vendor,
            sessionId: session.sessionId,
            human: session.human,
            worktree: step.worktree,
            branch: headBranch(step.worktree),
            machine: loadMachineId(options.sangamHome),
            state: step.state,
          },
          at,
        )
        return { kind: 'done' }
      }
      case 'codex-endpoint': {
        const current = readCodexEndpoint(db, session.sessionId)
        if (current !== null && current.recordedAt >= at)
          return { kind: 'dropped', why: 'a later one is recorded' }
        recordCodexEndpoint(db, {
          sessionId: session.sessionId,
          endpoint: step.endpoint,
          launcherPid: step.launcherPid,
          recordedAt: at,
        })
        return { kind: 'done' }
      }
      case 'pane':
        recordPane(db, session.vendor, session.sessionId, step.pane, at)
        return { kind: 'done' }
      case 'release': {
        const released = await arbiterFor(options).releaseSessionLeases(session.sessionId)
        return { kind: 'done', note: `released ${released.length}` }
      }
      case 'brief':
        return { kind: 'dropped', why: 'the session ended, or it is a day old' }
    }
  } catch (error) {
    return { kind: isLastingFailure(error) ? 'dropped' : 'failed', why: messageOf(error) }
  }
}

/**
 * The auto-lease of an edit the hook allowed without finishing it, taken now: the edit is decided
 * again, which records the lease or finds another in the way. Either the edit of a file someone
 * else holds went through unchecked, or it collided under `warn`: its session hears of it.
 */
async function lateAutoLease(
  options: DrainOptions,
  work: KeptWork,
  step: Extract<KeptWork['step'], { kind: 'auto-lease' }>,
): Promise<StepResult> {
  const arbiter = arbiterFor(options)
  const actor: Actor = { ...work.session }
  const problems: string[] = []
  for (const file of step.files) {
    const outcome = await checkEdit(arbiter, { actor, file, cwd: step.cwd, worktrees: step.worktrees })
    if (outcome.decision === 'deny') problems.push(outcome.reason)
    else problems.push(...outcome.warnings)
  }
  if (problems.length === 0) return { kind: 'done' }
  const files = step.files.map((file) => shortPath(file, step.cwd)).join(', ')
  const when = new Date(work.at).toISOString().slice(11, 19)
  return {
    kind: 'conflict',
    text:
      `sangam: your edit of ${files} at ${when} UTC went through before its lease check finished ` +
      `(${work.why}). Checked afterwards: ${problems.join(' ')}`,
  }
}

function arbiterFor(options: DrainOptions): ReturnType<typeof chooseLeaseArbiter> {
  return chooseLeaseArbiter(options.db, options.projectDir, options.clock, {
    local: { busyTimeoutMs: options.timeoutMs, editBusyTimeoutMs: options.timeoutMs },
    server: { timeoutMs: options.timeoutMs, editTimeoutMs: options.timeoutMs, log: options.log },
  })
}

/** The session's presence says it ended at or after `at`. */
function sessionEnded(db: Db, session: WorkSession, at: number): boolean {
  try {
    const current = readSessionPresence(db, session.vendor, session.sessionId)
    return current !== null && current.state === 'offline' && current.updatedAt >= at
  } catch {
    // A store from before the room: nothing says it ended.
    return false
  }
}

function briefIsMoot(db: Db, work: KeptWork, now: number): boolean {
  return now - work.at > briefLifetimeMs || sessionEnded(db, work.session, work.at)
}

function past(deadline: number | undefined, now: number): boolean {
  return deadline !== undefined && now >= deadline
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error'
}
