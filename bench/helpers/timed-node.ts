import { spawn, spawnSync } from 'node:child_process'

/** Wall time of one process start, and its CPU time (user + system) where GNU time exists. */
export interface TimedRun {
  readonly ms: number
  readonly cpuMs: number | null
  readonly stdout: string
}

/** GNU time reports the child's CPU; without it (macOS, a slim image) only wall time is measured. */
export const hasGnuTime =
  spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', 'true'], { encoding: 'utf8' }).stderr?.startsWith('cpu ') ??
  false

export interface TimedOptions {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly stdin?: string
  /**
   * For a server: the answer is in when this holds for stdout; the time stops there, then stdin
   * ends and the process is waited for, so that GNU time can report its CPU. Without it the time
   * runs until the process exits.
   */
  readonly answered?: (stdout: string) => boolean
  /** Reject when the process exits non-zero (a hook that denies exits 0 too). */
  readonly mustSucceed?: boolean
}

/**
 * Runs `node <args>` and times it. On a busy machine CPU time tells the cost of a start far better
 * than wall time; benchmarks print both, beside `node -e 0` timed the same way in the same run.
 */
export function timedNode(args: readonly string[], options: TimedOptions): Promise<TimedRun> {
  const started = performance.now()
  const [command, prefix] = hasGnuTime
    ? ['/usr/bin/time', ['-f', 'cpu %U %S', process.execPath]]
    : [process.execPath, []]
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let answeredAt: number | null = null
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      if (answeredAt === null && options.answered?.(stdout)) {
        answeredAt = performance.now()
        child.stdin.end()
      }
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (options.mustSucceed && code !== 0) {
        reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`))
        return
      }
      const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr)
      const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null
      resolve({ ms: (answeredAt ?? performance.now()) - started, cpuMs, stdout })
    })
    if (options.answered === undefined) child.stdin.end(options.stdin ?? '')
    else child.stdin.write(options.stdin ?? '')
  })
}
