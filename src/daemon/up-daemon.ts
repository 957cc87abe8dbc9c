import { codexWake } from '../agents/codex/services/codex-wake.ts'
import { geminiLegacyMarks, syncGeminiJournal } from '../agents/gemini/services/gemini-journal.ts'
import { JournalPoller } from '../agents/journal-poller.ts'
import { opencodeSourceMarks, syncOpencodeJournal } from '../agents/opencode/services/opencode-journal.ts'
import { transcriptRoots } from '../agents/vendors.ts'
import type { WakeInPlace } from '../agents/wake-in-place.ts'
import { daemonFile, geminiJournalDir, opencodeJournalDir, projectDir } from '../config/data-paths.ts'
import type { Environment } from '../config/environment.ts'
import { loadMachineId } from '../config/machine-id.ts'
import { thisMachine } from '../identity/services/this-machine.ts'
import type { MainOutside } from '../lanes/core/main-record.ts'
import { mainOutsideNow } from '../lanes/services/lane-status.ts'
import { openLaneWorld } from '../lanes/services/lane-world.ts'
import { keepLaneLock, type LockKept, tmuxPaneAlive } from '../lanes/services/lock-keeper.ts'
import { mainHere } from '../lanes/services/main-in-step.ts'
import { normaliseLanes } from '../lanes/services/normalise-lanes.ts'
import { hasLaneTables, readLanes } from '../lanes/store/lane-table.ts'
import { projectCapture } from '../memory/services/project-capture.ts'
import { openProject } from '../project/services/open-project.ts'
import { openLanesForReading } from '../project/services/project-lane-world.ts'
import type { TeamLanes } from '../project/services/team-lanes.ts'
import { openProjectDatabase } from '../project/store/project-database.ts'
import type { Clock } from '../shared/clock.ts'
import { type Logger, silentLogger } from '../shared/logger.ts'
import { isAlive } from '../shared/process-alive.ts'
import { systemRandom } from '../shared/random.ts'
import type { Db } from '../store/database.ts'
import type { SyncStatus } from '../sync/services/sync-status.ts'
import { CaptureTailer, type TailerStatus } from './capture-tailer.ts'
import { DaemonLock } from './daemon-lock.ts'
import { DeliveryService, type DeliveryStatus } from './delivery-service.ts'
import { DirectoryService } from './directory-service.ts'
import { HookWorkService, type HookWorkStatus } from './hook-work-service.ts'
import { LaneLockService } from './lane-lock-service.ts'
import { OverlapService, type OverlapStatus } from './overlap-service.ts'
import type { Service } from './service.ts'
import { SyncService } from './sync-service.ts'

export type DaemonStatus =
  | {
      readonly type: 'started'
      readonly pid: number
      readonly projectId: string
      readonly root: string
      readonly since: string
      readonly version: string
    }
  | TailerStatus
  | SyncStatus
  | OverlapStatus
  | DeliveryStatus
  | HookWorkStatus
  /** Main moved outside sangam (D300), once per commit. */
  | ({ readonly type: 'main-outside' } & MainOutside)
  | { readonly type: 'stopped'; readonly pid: number }

export interface UpOptions {
  readonly env: Environment
  readonly cwd: string
  readonly clock: Clock
  readonly log: Logger
  readonly since: number
  readonly version: string
  readonly pid: number
  /** Aborted by SIGINT/SIGTERM: the one way the daemon stops. */
  readonly stopSignal: AbortSignal
  readonly onStatus: (status: DaemonStatus) => void
  /** The Codex wake-in-place channel delivery uses; absent → sessions are resumed instead. */
  readonly wake?: WakeInPlace | undefined
}

/**
 * `sangam up`: the daemon's composition root. Takes the project's discovery file (one daemon per
 * project and machine), runs its services until the stop signal, then shuts down in one order:
 * services finish the transaction in hand and stop, the database is closed, the file removed.
 */
export async function runUp(options: UpOptions): Promise<void> {
  const project = openProject(options.env, options.cwd, options.clock)
  let lock: DaemonLock | null = null
  try {
    lock = DaemonLock.acquire(daemonFile(options.env.sangamHome, project.repo.projectId), {
      pid: options.pid,
      version: options.version,
      startedAt: new Date(options.clock.now()).toISOString(),
    })
    const log = options.log.child({ component: 'daemon', project: project.repo.projectId })
    await normaliseLanesAtStart(project, options, log)
    const { sangamHome } = options.env
    const { projectId } = project.repo
    const delivery = new DeliveryService({
      project,
      openDb: () => openProjectDatabase(sangamHome, projectId),
      log,
      pid: options.pid,
      // Sessions started under `sangam codex` are woken in place over their app-server socket.
      wake: options.wake ?? codexWake({ db: project.db, clientVersion: options.version }),
      onStatus: options.onStatus,
    })
    const hookWork = new HookWorkService({
      projectDir: projectDir(sangamHome, projectId),
      sangamHome,
      openDb: () => openProjectDatabase(sangamHome, projectId),
      clock: options.clock,
      log,
      pid: options.pid,
      onStatus: (status) => {
        options.onStatus(status)
        // What it recorded (presence, a late auto-lease's mirror) goes to the team now.
        sync.nudge()
      },
    })
    const sync = new SyncService({
      projectDir: projectDir(sangamHome, projectId),
      openDb: () => openProjectDatabase(sangamHome, projectId),
      human: project.human,
      clock: options.clock,
      log,
      onStatus: (status) => {
        options.onStatus(status)
        // The server is back: what hooks could not push to it goes now, not at the step's next try.
        if (status.type === 'sync-connected') hookWork.nudge()
        // Another machine's worktree changed: redraw the overlap picture now, not in 15 s.
        if (status.type === 'sync-applied' && status.worktreeStates > 0) overlap.nudge()
        // Messages from other machines may tag a session of this one.
        if (status.type === 'sync-applied' && status.records > 0) delivery.nudge()
      },
    })
    const overlap = new OverlapService({
      openDb: () => openProjectDatabase(sangamHome, projectId),
      cwd: project.repo.root,
      commonDir: project.repo.commonDir,
      machine: loadMachineId(sangamHome),
      human: project.human,
      clock: options.clock,
      random: systemRandom,
      log,
      onStatus: options.onStatus,
      onShared: () => sync.nudge(),
      // Connecting first: a team starting together is CPU-bound, and the round's git work only
      // delays the connection its worktree states would leave by.
      startAfter: sync.settled(),
    })
    const directory = new DirectoryService({
      openDb: () => openProjectDatabase(sangamHome, projectId),
      machine: () => thisMachine(sangamHome),
      worktrees: project.repo.worktrees,
      human: project.human,
      clock: options.clock,
      log,
      onShared: () => sync.nudge(),
    })
    const services: Service[] = [
      // opencode's sessions are in its database (or its JSON storage before 1.2), and Gemini CLI's
      // before 0.39 in documents rewritten whole: copied into journals the tailer reads.
      new JournalPoller({
        id: 'opencode-journal',
        what: 'opencode sessions',
        marks: () => opencodeSourceMarks(options.env.opencodeDataDir),
        copy: (now) =>
          syncOpencodeJournal({
            dataDir: options.env.opencodeDataDir,
            journalDir: opencodeJournalDir(options.env.sangamHome),
            now,
          }),
        clock: options.clock,
        log,
      }),
      new JournalPoller({
        id: 'gemini-journal',
        what: 'Gemini CLI sessions from before 0.39',
        marks: () => geminiLegacyMarks(options.env.geminiDir),
        copy: (now) =>
          syncGeminiJournal({
            geminiDir: options.env.geminiDir,
            journalDir: geminiJournalDir(options.env.sangamHome),
            projectRoots: project.repo.worktrees,
            now,
          }),
        // Documents of sessions long over are many and never change again: looked at less often
        // while none does (2,000 of them: about 125 ms a look).
        idleIntervalMs: 8000,
        clock: options.clock,
        log,
      }),
      new CaptureTailer({
        capture: projectCapture(project, options.since, log),
        roots: transcriptRoots(options.env),
        clock: options.clock,
        log,
        onStatus: (status) => {
          options.onStatus(status)
          // Push what was just captured now, not at the next look at the outbox; a session new
          // to the room joins it now.
          if (status.type === 'captured') {
            sync.nudge()
            directory.nudge()
          }
        },
      }),
      sync,
      hookWork,
      directory,
      overlap,
      delivery,
      new LaneLockService({
        openDb: () => openProjectDatabase(sangamHome, projectId),
        keep: (db) => keepLockOf(project, db, options),
        lookAtMain: (db) => mainOutsideOfProject(project, db, options),
        onMainOutside: (outside) => options.onStatus({ type: 'main-outside', ...outside }),
        log,
      }),
    ]
    options.onStatus({
      type: 'started',
      pid: options.pid,
      projectId: project.repo.projectId,
      root: project.repo.root,
      since: new Date(options.since).toISOString(),
      version: options.version,
    })
    const stopAll = (): void => {
      for (const service of services) void service.stop()
    }
    options.stopSignal.addEventListener('abort', stopAll, { once: true })
    if (options.stopSignal.aborted) stopAll()
    // A service that fails stops the others, and the database closes only once all have stopped.
    const outcomes = await Promise.allSettled(
      services.map((service) =>
        service.run().catch((error: unknown) => {
          stopAll()
          throw error
        }),
      ),
    )
    options.stopSignal.removeEventListener('abort', stopAll)
    const failure = outcomes.find((outcome) => outcome.status === 'rejected')
    if (failure) throw failure.reason
  } finally {
    project.close()
    lock?.release()
  }
  options.onStatus({ type: 'stopped', pid: options.pid })
}

/**
 * The lanes as lane commands see them (this machine's lock, or the team server's when attached), on
 * one of the daemon's own connections; null while the project has no lane.
 */
function lanesOn(project: ReturnType<typeof openProject>, db: Db, options: UpOptions): TeamLanes | null {
  if (!hasLaneTables(db) || readLanes(db).length === 0) return null
  return openLanesForReading({ ...project, db }, { pid: options.pid, log: silentLogger })
}

/** One look at the integration lock for the daemon's LaneLockService, the stale window as the option says now. */
async function keepLockOf(
  project: ReturnType<typeof openProject>,
  db: Db,
  options: UpOptions,
): Promise<LockKept | null> {
  const lanes = lanesOn(project, db, options)
  if (lanes === null) return null
  return await keepLaneLock({
    db,
    lock: lanes.world.lock,
    clock: options.clock,
    staleMs: lanes.world.settings.lockStaleMinutes * 60_000,
    paneAlive: tmuxPaneAlive(options.env.vendorCliEnv),
    isAlive,
  })
}

/** Main against the record of where sangam last moved it, here and on the team's remote (D300). */
async function mainOutsideOfProject(
  project: ReturnType<typeof openProject>,
  db: Db,
  options: UpOptions,
): Promise<MainOutside | null> {
  const lanes = lanesOn(project, db, options)
  if (lanes === null) return null
  return await mainOutsideNow(lanes.world, mainHere(lanes.world), lanes)
}

/**
 * The restart normalisation of lanes (lanes/services/normalise-lanes.ts): integrations a crash
 * interrupted are put right, each lane's work backed up first, before any service starts.
 */
async function normaliseLanesAtStart(
  project: ReturnType<typeof openProject>,
  options: UpOptions,
  log: Logger,
): Promise<void> {
  if (!hasLaneTables(project.db) || readLanes(project.db).length === 0) return
  const world = openLaneWorld({
    db: project.db,
    clock: options.clock,
    repo: project.repo,
    human: project.human,
    machine: loadMachineId(options.env.sangamHome),
    childEnv: options.env.vendorCliEnv,
    pid: options.pid,
  })
  const done = await normaliseLanes(world, { startup: true })
  for (const entry of done)
    log.info('lane normalised', { lane: entry.lane, action: entry.action, backupRefs: entry.backupRefs })
}
