import { spawnCli } from '../helpers/run-cli.ts'
import type { AgentLab } from './agent-lab.ts'

/**
 * `sangam up` in an agent lab, once it has caught up with the room (it delivers what is posted
 * after, D173), with everything it printed kept for failure messages. Disposing stops it.
 */
export interface LabDaemon extends AsyncDisposable {
  output(): string
  /** Stops it now (before the scenario's own clean-up), once; disposing after is a no-op. */
  stop(): Promise<void>
}

export async function startLabDaemon(lab: AgentLab): Promise<LabDaemon> {
  const daemon = spawnCli(['up'], { cwd: lab.repo.path, env: lab.env })
  let out = ''
  const collect = (chunk: Buffer): void => {
    out += chunk.toString('utf8')
  }
  daemon.stdout?.on('data', collect)
  daemon.stderr?.on('data', collect)
  const closed = new Promise((resolve) => daemon.once('close', resolve))
  await until(
    'the daemon catching up',
    async () => (/tailing/.test(out) ? true : null),
    60_000,
    async () => out,
  )
  const stop = async (): Promise<void> => {
    if (daemon.exitCode === null) daemon.kill('SIGTERM')
    await closed
  }
  return { output: () => out, stop, [Symbol.asyncDispose]: stop }
}

/** Polls `probe` every 200 ms until it answers non-null; past `timeoutMs` (a hang) fails with `context()`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null>,
  timeoutMs: number,
  context: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`${what} never happened\n${await context()}`)
    await new Promise((done) => setTimeout(done, 200))
  }
}
