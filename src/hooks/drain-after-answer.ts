import { runningDaemon } from '../config/daemon-discovery.ts'
import { daemonFileBeside, hookWorkDir } from '../config/data-paths.ts'
import type { Environment } from '../config/environment.ts'
import { drainHookWork } from '../hook-work/services/work-drain.ts'
import { journalEntries } from '../hook-work/services/work-journal.ts'
import type { Clock } from '../shared/clock.ts'
import { silentLogger } from '../shared/logger.ts'
import { isAlive } from '../shared/process-alive.ts'
import { openHookStore } from './hook-store.ts'
import type { LocatedProject } from './project-locator.ts'

export interface AfterAnswerDrain {
  readonly project: LocatedProject
  readonly env: Environment
  readonly clock: Clock
  readonly pid: number
  /** No step starts after this (ms epoch): the hook's own budget, less a margin. */
  readonly deadline: number
}

/** Below this much time left, a hook does not start draining: one step would not fit. */
const minimumMs = 150
/** One step's wait for the team server: the edit budget's (D58). */
const serverWaitMs = 700
/** One step's wait for the store's write lock: the edit gate's. */
const lockWaitMs = 300
/** Work a running daemon left this long (an older daemon, or a stuck one) is done by hooks too. */
const overdueMs = 10_000

/**
 * The "next hook" half of finishing kept work (hook-work/services/): once its own answer is out, a
 * hook that found work waiting in the journal does what fits in what is left of its budget, and
 * stops at the first step that fails again (a server still down costs one try, not the budget).
 * A running daemon does it instead, unless the work has waited past `overdueMs`. Imported only when
 * the journal holds work, so the edit path loads none of this.
 */
export async function drainAfterAnswer(input: AfterAnswerDrain): Promise<void> {
  const { project, clock } = input
  const left = input.deadline - clock.now()
  if (left < minimumMs) return
  const dir = hookWorkDir(project.projectDir)
  if (runningDaemon(daemonFileBeside(project.databaseFile)) !== null && !overdue(dir, clock.now())) return
  const db = openHookStore(project.databaseFile, Math.min(lockWaitMs, left))
  try {
    await drainHookWork({
      dir,
      projectDir: project.projectDir,
      db,
      sangamHome: input.env.sangamHome,
      clock,
      pid: input.pid,
      isAlive,
      timeoutMs: Math.min(serverWaitMs, left),
      deadline: input.deadline,
      stopAtFailure: true,
      log: silentLogger,
    })
  } finally {
    db.close()
  }
}

/** Some waiting work was kept by a hook that ran more than `overdueMs` ago. */
function overdue(dir: string, now: number): boolean {
  return journalEntries(dir).some(
    (entry) =>
      entry.type === 'work' && entry.claimedBy === null && now - Number(entry.stamp.slice(0, 15)) > overdueMs,
  )
}
