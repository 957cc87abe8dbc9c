import { linkSync, unlinkSync, writeFileSync } from 'node:fs'
import { type DaemonInfo, readDaemonInfo } from '../config/daemon-discovery.ts'
import { isAlive } from '../shared/process-alive.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

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
