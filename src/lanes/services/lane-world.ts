import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { findMainBranch } from '../../git/branch.ts'
import type { Repository } from '../../git/repository.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import type { Clock } from '../../shared/clock.ts'
import { isAlive } from '../../shared/process-alive.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import { type LaneSettings, laneOptions } from '../core/settings.ts'
import { readLane } from '../store/lane-table.ts'
import { recordIntegrationEvent } from './integration-events.ts'
import type { IntegrationLock } from './integration-lock.ts'
import type { MainPublisher } from './main-publisher.ts'
import { storeMainMoves } from './main-record.ts'
import { RefMainPublisher } from './ref-main-publisher.ts'
import { StoreIntegrationLock } from './store-integration-lock.ts'
import type { TaskCourier } from './task-courier.ts'
import { TmuxTaskCourier } from './tmux-task-courier.ts'

/** The outcome of the project's check command on a candidate. */
export interface CheckRun {
  readonly ok: boolean
  readonly exitCode: number | null
  /** The end of what it printed (stdout and stderr), for the refusal. */
  readonly tail: string
}

/** Everything a lane use case works with; `openLaneWorld` builds this machine's. */
export interface LaneWorld {
  readonly db: Db
  readonly clock: Clock
  /** The project's main worktree (lanes live under its `.sangam/lanes/`). */
  readonly root: string
  readonly commonDir: string
  readonly mainBranch: string
  /** Who runs this command (the human; a lane's owner when it is created). */
  readonly human: string
  /** This machine's id: its integration events name it, and lane names are per machine. */
  readonly machine: string
  readonly lock: IntegrationLock
  readonly publisher: MainPublisher
  readonly courier: TaskCourier
  readonly settings: LaneSettings
  /** This process, recorded on a lane while it integrates it. */
  readonly pid: number
  readonly isAlive: (pid: number) => boolean
  /** Called at each step of an integration (the crash tests kill the process there). */
  readonly fault: (step: string) => void
  /** Runs the project's check command in `cwd`. */
  readonly runCheck: (command: string, cwd: string) => CheckRun
  /** The environment child processes (tmux, the agent, the check) get. */
  readonly childEnv: Readonly<Record<string, string>>
  /** Records an integration event for `sangam log`, shared with the team when attached. */
  record(type: string, lane: string | null, payload: Readonly<Record<string, unknown>>): void
}

export interface LaneWorldInput {
  readonly db: Db
  readonly clock: Clock
  readonly repo: Repository
  readonly human: string
  /** This machine's id (config/machine-id.ts). */
  readonly machine: string
  readonly childEnv: Readonly<Record<string, string>>
  readonly pid: number
  readonly fault?: ((step: string) => void) | undefined
}

/**
 * This machine's lane world: the lock in the store, main moved by `update-ref` with its old value,
 * tasks pasted into the lane's tmux pane. The team lock, the remote publisher and the delivery
 * courier replace these three where a team is attached.
 */
export function openLaneWorld(input: LaneWorldInput): LaneWorld {
  const root = input.repo.worktrees[0] ?? input.repo.root
  const main = findMainBranch(root)
  if (main === null)
    throw new SangamError(
      ErrorCode.InvalidInput,
      'this repository has no main branch yet (main, master or trunk): commit once on it, then create lanes',
    )
  // Lanes move a local branch and the worktree that has it checked out; a remote one is neither.
  if (!main.local) {
    const branch = main.name.slice('origin/'.length)
    throw new SangamError(
      ErrorCode.InvalidInput,
      `origin/HEAD names ${branch}, which this clone has no local branch of: create it with \`git branch ${branch} ${main.name}\`, then create lanes`,
    )
  }
  const fault = input.fault ?? (() => undefined)
  const db = input.db
  const clock = input.clock
  return {
    db,
    clock,
    root,
    commonDir: input.repo.commonDir,
    mainBranch: main.name,
    human: input.human,
    machine: input.machine,
    lock: new StoreIntegrationLock(db, clock),
    publisher: new RefMainPublisher(
      root,
      main.name,
      fault,
      input.repo.commonDir,
      storeMainMoves(db, main.name, clock),
    ),
    courier: new TmuxTaskCourier((lane) => readLane(db, lane)?.pane ?? null, input.childEnv),
    settings: readOptionGroup(db, laneOptions),
    pid: input.pid,
    isAlive,
    fault,
    runCheck: (command, cwd) => runShell(command, cwd, input.childEnv),
    childEnv: input.childEnv,
    record: (type, lane, payload) =>
      recordIntegrationEvent(
        db,
        { machine: input.machine, human: input.human },
        { type, lane, payload },
        clock.now(),
      ),
  }
}

/** Where lane `name`'s worktree lives: `<main worktree>/.sangam/lanes/<name>` (git-excluded). */
export function laneWorktreePath(root: string, name: string): string {
  return join(root, '.sangam', 'lanes', name)
}

/** The folder of a lane's task files, inside its worktree (git-excluded with `.sangam/`). */
export function laneTaskFolder(worktree: string): string {
  return join(worktree, '.sangam', 'tasks')
}

const checkTimeoutMs = 30 * 60_000
const tailChars = 2000

function runShell(command: string, cwd: string, env: Readonly<Record<string, string>>): CheckRun {
  const result = spawnSync('sh', ['-c', command], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: checkTimeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  })
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
  return { ok: result.status === 0, exitCode: result.status, tail: output.slice(-tailChars) }
}
