import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { z } from 'zod'
import { serveLockFile } from '../config/data-paths.ts'
import type { Logger } from '../shared/logger.ts'
import { isAlive } from '../shared/process-alive.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/**
 * One `sangam serve` per data dir: two workerd processes on the same SQLite files would corrupt
 * them. The lock file names the serving process and its workerd child. workerd outlives a
 * `kill -9` of its parent (it is Miniflare's child, not ours to reparent), so a lock left by a
 * dead serve whose workerd still runs means an orphan that still holds the files: it is stopped
 * before the new server starts.
 */
const lockSchema = z.object({
  pid: z.number().int().positive(),
  workerdPid: z.number().int().positive().nullable(),
  url: z.string().nullable(),
})
type LockContent = z.infer<typeof lockSchema>

export interface ServeLock {
  /** Records the running server, once it listens. */
  record(url: string): void
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
  if (previous?.workerdPid && isWorkerd(previous.workerdPid)) {
    log.warn('stopping the workerd left running by a serve that died', { pid: previous.workerdPid })
    await stopProcess(previous.workerdPid)
  }
  write(path, { pid: process.pid, workerdPid: null, url: null })
  return {
    record: (url) => write(path, { pid: process.pid, workerdPid: findWorkerdChild(), url }),
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

/** Checks the command too, so a recycled pid is never killed by mistake. */
function isWorkerd(pid: number): boolean {
  return processTable().some((entry) => entry.pid === pid && entry.command.includes('workerd'))
}

function findWorkerdChild(): number | null {
  const child = processTable().find(
    (entry) => entry.ppid === process.pid && entry.command.includes('workerd'),
  )
  return child?.pid ?? null
}

/** `ps` has these columns on Linux and macOS alike; without `ps`, orphans are not tracked. */
function processTable(): { pid: number; ppid: number; command: string }[] {
  let output: string
  try {
    output = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
  } catch {
    return []
  }
  return output.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)
    return match ? [{ pid: Number(match[1]), ppid: Number(match[2]), command: match[3] ?? '' }] : []
  })
}

async function stopProcess(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM')
  for (let waited = 0; waited < 5000; waited += 50) {
    if (!isAlive(pid)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  process.kill(pid, 'SIGKILL')
}
