import { type ChildProcess, execFileSync, spawn } from 'node:child_process'

/**
 * The workerd process Miniflare starts for `sangam serve`, and what keeps it from outliving serve.
 * Miniflare spawns workerd as an ordinary child: a `kill -9` of serve leaves it running, holding
 * the port and the SQLite files. Two lines of defence, both here:
 *
 * - a watchdog: a tiny `sh` whose stdin is a pipe from serve. It blocks reading it; when serve dies,
 *   however it dies, the kernel closes the pipe, the read ends and the watchdog kills workerd.
 * - the serve lock records workerd's pid and start time, so a later serve can stop an orphan the
 *   watchdog missed (the watchdog killed too), and only when it is provably that process.
 */
export interface WorkerdProcess {
  readonly pid: number
  /** As `ps -o lstart=` prints it: with the pid, it names one process, never a recycled pid. */
  readonly startedAt: string
}

export interface Watchdog {
  readonly pid: number | null
  /** Serve is stopping workerd itself: the watchdog is no longer needed. */
  stop(): void
}

/** Workerd children already claimed by a server of this process (tests run several at once). */
const claimed = new Set<number>()

/** The workerd child of this process that no other local server has claimed, if there is one. */
export function claimWorkerdChild(): WorkerdProcess | null {
  const child = processTable().find(
    (entry) => entry.ppid === process.pid && entry.command.includes('workerd') && !claimed.has(entry.pid),
  )
  if (child === undefined) return null
  claimed.add(child.pid)
  const startedAt = startTimeOf(child.pid)
  return startedAt === null ? null : { pid: child.pid, startedAt }
}

/** Whether `process` still runs and is the very workerd recorded (same pid, same start, still workerd). */
export function isSameWorkerd(recorded: WorkerdProcess): boolean {
  const entry = processTable().find((candidate) => candidate.pid === recorded.pid)
  return entry?.command.includes('workerd') === true && startTimeOf(recorded.pid) === recorded.startedAt
}

/** Starts the watchdog over `workerd`; it dies with serve (or with `stop`). */
export function watchOver(workerd: WorkerdProcess): Watchdog {
  // `read` returns non-zero at end of input: when serve is gone. Then, if the pid is still the
  // same workerd (its start time unchanged), it is killed.
  const script = [
    'while read -r _; do :; done',
    `started=$(ps -o lstart= -p "$1" 2>/dev/null | sed 's/^ *//; s/ *$//')`,
    'if [ "$started" = "$2" ]; then kill -9 "$1" 2>/dev/null; fi',
  ].join('\n')
  let child: ChildProcess
  try {
    child = spawn(
      '/bin/sh',
      ['-c', script, 'sangam-serve-watchdog', String(workerd.pid), workerd.startedAt],
      {
        stdio: ['pipe', 'ignore', 'ignore'],
        // Its own process group: a Ctrl-C or a group kill aimed at serve must not end the watchdog first.
        detached: true,
      },
    )
  } catch {
    return { pid: null, stop: () => undefined }
  }
  child.on('error', () => undefined)
  child.stdin?.on('error', () => undefined)
  child.unref()
  // The pipe must not keep the event loop alive either.
  ;(child.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  return {
    pid: child.pid ?? null,
    stop: () => {
      claimed.delete(workerd.pid)
      child.kill('SIGKILL')
    },
  }
}

function startTimeOf(pid: number): string | null {
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim()
    return started === '' ? null : started
  } catch {
    return null
  }
}

/** `ps` has these columns on Linux and macOS alike; without `ps`, workerd is not tracked. */
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
