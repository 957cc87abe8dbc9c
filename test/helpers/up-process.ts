import type { ChildProcess } from 'node:child_process'
import { collectOutput } from './child-output.ts'
import { spawnCli } from './run-cli.ts'

/** A running `sangam up --json`, its status lines parsed as they arrive. */
export interface UpProcess extends AsyncDisposable {
  readonly child: ChildProcess
  readonly statuses: Record<string, unknown>[]
  /** Everything printed on stdout (the status lines a person reads, with `text: true`). */
  stdout(): string
  stderr(): string
  /** Resolves with the first status of this type (already seen or still to come). */
  waitFor(type: string, timeoutMs?: number): Promise<Record<string, unknown>>
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

export function startUp(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined>; text?: boolean | undefined },
): UpProcess {
  const child = spawnCli(['up', ...(options.text === true ? [] : ['--json']), ...args], options)
  const statuses: Record<string, unknown>[] = []
  const waiters: { type: string; resolve: (status: Record<string, unknown>) => void }[] = []
  const output = collectOutput(child)
  let pending = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    if (options.text === true) return
    pending += chunk.toString('utf8')
    for (let at = pending.indexOf('\n'); at !== -1; at = pending.indexOf('\n')) {
      const status = JSON.parse(pending.slice(0, at)) as Record<string, unknown>
      pending = pending.slice(at + 1)
      statuses.push(status)
      for (const waiter of waiters.filter((w) => w.type === status.type)) waiter.resolve(status)
    }
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  return {
    child,
    statuses,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    waitFor(type, timeoutMs = 30_000) {
      const seen = statuses.find((status) => status.type === type)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no "${type}" status within ${timeoutMs} ms; stderr: ${output.stderr}`)),
          timeoutMs,
        )
        waiters.push({
          type,
          resolve: (status) => {
            clearTimeout(timer)
            resolve(status)
          },
        })
        void exited.then(() =>
          reject(new Error(`sangam up exited before "${type}"; stderr: ${output.stderr}`)),
        )
      })
    },
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop()
    },
  }
}

/** Polls until `check` returns (or resolves to) true; throws after `timeoutMs`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
