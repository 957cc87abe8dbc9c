import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * A process is its pid and when it started: a pid alone may have been reused since it was
 * recorded, and `stop` must never signal a stranger. On Linux the start is field 22 of
 * `/proc/<pid>/stat` (clock ticks since boot); elsewhere `ps -o lstart=`. Null when the process
 * is gone (or cannot be read).
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // A zombie has ended; only its parent has not reaped it yet.
    if (rest[0] === 'Z' || rest[0] === 'X') return null
    return rest[19] ?? null
  } catch {
    if (process.platform === 'linux') return null
  }
  const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 })
  const text = ps.status === 0 ? ps.stdout.trim() : ''
  return text === '' ? null : text
}

/** The process `pid` still runs and is the one that started at `start` (when known). */
export function isSameProcess(pid: number, start: string | null): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const now = processStart(pid)
  if (now === null) return false
  return start === null || now === start
}
