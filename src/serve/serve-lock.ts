import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { z } from 'zod'
import { serveLockFile } from '../config/data-paths.ts'
import type { Logger } from '../shared/logger.ts'
import { isAlive } from '../shared/process-alive.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { isSameWorkerd, type WorkerdProcess } from './workerd-process.ts'

/**
 * One `sangam serve` per data dir: two workerd processes on the same SQLite files would corrupt
 * them. The lock file names the serving process, its workerd child (pid and start time) and the
 * watchdog that kills workerd when serve dies (workerd-process.ts). Should workerd still run when
 * serve is gone (the watchdog was killed too), the next serve stops it before starting, but only
 * when it is provably the recorded process: same pid, same start time, still workerd.
 */
const lockSchema = z.object({
  pid: z.number().int().positive(),
  workerdPid: z.number().int().positive().nullable(),
  /** Absent in locks written before start times were recorded: such a pid is never killed. */
  workerdStartedAt: z.string().nullable().optional(),
  watchdogPid: z.number().int().positive().nullable().optional(),
  url: z.string().nullable(),
})
type LockContent = z.infer<typeof lockSchema>

export interface ServeLock {
  /** Records the running server, once it listens. */
  record(url: string, workerd: WorkerdProcess | null, watchdogPid: number | null): void
  release(): void
}

export async function acquireServeLock(dataDir: string, log: Logger): Promise<ServeLock> {
  const path = serveLockFile(dataDir)
  const previous = readLock(path)
  if (previous !== null && previous.pid !== process.pid && isAlive(previous.pid))
    throw new SangamError(
      ErrorCode.DaemonRunning,
      `another sangam serve (pid ${previous.pid}${previous.url ? `, ${previous.url}` : ''}) already uses ${dataDir}`,
    )
  const orphan =
    previous?.workerdPid && previous.workerdStartedAt
      ? { pid: previous.workerdPid, startedAt: previous.workerdStartedAt }
      : null
  if (orphan !== null && isSameWorkerd(orphan)) {
    log.warn('stopping the workerd left running by a serve that died', { pid: orphan.pid })
    await stopProcess(orphan.pid)
  }
  write(path, { pid: process.pid, workerdPid: null, url: null })
  return {
    record: (url, workerd, watchdogPid) =>
      write(path, {
        pid: process.pid,
        workerdPid: workerd?.pid ?? null,
        workerdStartedAt: workerd?.startedAt ?? null,
        watchdogPid,
        url,
      }),
    release: () => rmSync(path, { force: true }),
  }
}

function readLock(path: string): LockContent | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function write(path: string, content: LockContent): void {
  writeFileSync(path, `${JSON.stringify(content)}\n`, { mode: 0o600 })
}

/**
 * Stops `pid`: SIGTERM, then SIGKILL after 5 s. A process gone before a signal reaches it (the
 * orphan's watchdog killed it between the check and the kill) is stopped already, not a failure.
 */
export async function stopProcess(pid: number): Promise<void> {
  if (!signal(pid, 'SIGTERM')) return
  for (let waited = 0; waited < 5000; waited += 50) {
    if (!isAlive(pid)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  signal(pid, 'SIGKILL')
}

/** Sends `name` to `pid`; false when there is no such process (ESRCH). */
function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
}
