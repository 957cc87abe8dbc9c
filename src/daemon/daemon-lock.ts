import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { projectDir } from '../store/database.ts'

/** What the discovery file of a running daemon says. */
export const daemonInfoSchema = z.object({
  pid: z.number().int().positive(),
  version: z.string(),
  /** ISO-8601 UTC. */
  startedAt: z.string(),
})
export type DaemonInfo = z.infer<typeof daemonInfoSchema>

/** `$SANGAM_HOME/projects/<projectId>/daemon.json`: one daemon per project and machine. */
export function daemonFile(sangamHome: string, projectId: string): string {
  return join(projectDir(sangamHome, projectId), 'daemon.json')
}

/** The daemon that runs for this file's project, or null (no file, an unreadable one, or a dead pid). */
export function runningDaemon(file: string): DaemonInfo | null {
  const info = readDaemonInfo(file)
  return info && isAlive(info.pid) ? info : null
}

/**
 * The discovery file, held for as long as the daemon runs. It is created whole or not at all: the
 * content is written to a private temporary file which is then hard-linked into place, and a link
 * fails if the name exists, so two `up`s started together cannot both win. A file left by a daemon
 * that died (`kill -9`, a reboot) names a dead pid and is replaced.
 */
export class DaemonLock {
  readonly file: string
  readonly info: DaemonInfo

  private constructor(file: string, info: DaemonInfo) {
    this.file = file
    this.info = info
  }

  static acquire(file: string, info: DaemonInfo): DaemonLock {
    const content = `${JSON.stringify(info)}\n`
    for (let attempt = 0; attempt < 5; attempt++) {
      const temporary = `${file}.${info.pid}.tmp`
      writeFileSync(temporary, content, { mode: 0o600 })
      try {
        linkSync(temporary, file)
        return new DaemonLock(file, info)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      } finally {
        unlinkSync(temporary)
      }
      const holder = readDaemonInfo(file)
      if (holder && holder.pid !== info.pid && isAlive(holder.pid)) {
        throw new SangamError(
          ErrorCode.DaemonRunning,
          `sangam up already runs for this project (pid ${holder.pid}, started ${holder.startedAt}); stop it first`,
          holder,
        )
      }
      removeIfUnchanged(file, holder)
    }
    throw new SangamError(
      ErrorCode.DaemonRunning,
      `could not take ${file}: another sangam up keeps replacing it`,
    )
  }

  /** Removes the file if it is still ours. */
  release(): void {
    if (readDaemonInfo(this.file)?.pid !== this.info.pid) return
    try {
      unlinkSync(this.file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
}

function readDaemonInfo(file: string): DaemonInfo | null {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return null
  }
  try {
    const parsed = daemonInfoSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Replaces a stale file only if it is still the one we judged stale. */
function removeIfUnchanged(file: string, judged: DaemonInfo | null): void {
  const now = readDaemonInfo(file)
  if (JSON.stringify(now) !== JSON.stringify(judged)) return
  try {
    unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
