import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const cliEntry = join(import.meta.dirname, '..', '..', '..', 'dist', 'cli', 'main.js')

/** A `sangam serve` process, run from the compiled CLI as a user runs it. */
export interface ServeProcess {
  readonly url: string
  readonly child: ChildProcess
  /** Everything written to stdout so far. */
  stdout(): string
  /** Everything written to stderr so far (for assertion messages). */
  stderr(): string
  /** Asks for an orderly stop; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  /** A crash: kills serve and its workerd together (the whole process group), no shutdown. */
  crash(): Promise<void>
  /** `kill -9` of the serve process alone, leaving its workerd child behind. */
  killParentOnly(): Promise<void>
}

const started = new Set<ChildProcess>()

/** For `after` hooks: ends what a failed test left running (a serve, or an orphaned workerd). */
export function killAllServes(): void {
  for (const child of started) {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL')
    } catch {
      // The group is already gone: nothing was left running.
    }
  }
  started.clear()
}

/** `sangam serve --port 0 --data <dataDir>`, with HOME and SANGAM_HOME inside `dataDir` too. */
export function startServe(dataDir: string): Promise<ServeProcess> {
  return startServeWith(['--port', '0', '--data', dataDir], dataDir)
}

/** `sangam serve <args>` with HOME and SANGAM_HOME (`<home>/.sangam`) under `home`. */
export async function startServeWith(args: readonly string[], home: string): Promise<ServeProcess> {
  if (!existsSync(cliEntry)) throw new Error(`${cliEntry} is missing: run npm run build first`)
  const child = spawn(process.execPath, [cliEntry, 'serve', ...args], {
    env: { PATH: process.env.PATH, HOME: home, SANGAM_HOME: join(home, '.sangam'), SANGAM_LOG: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a crash can take workerd down with it, as a machine failure would.
    detached: true,
  })
  started.add(child)
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout ?? process.stdin })
    lines.once('line', resolve)
    lines.on('line', (line) => {
      stdout += `${line}\n`
    })
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before printing its URL: ${stderr}`)))
  })
  return {
    url: firstLine,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      child.kill(signal)
      return exited
    },
    async crash() {
      process.kill(-(child.pid ?? 0), 'SIGKILL')
      await exited
    },
    async killParentOnly() {
      child.kill('SIGKILL')
      await exited
    },
  }
}
