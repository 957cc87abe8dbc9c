import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { constants as osConstants } from 'node:os'
import { codexSocketDir, codexSocketFile } from '../../../config/data-paths.ts'
import type { Logger } from '../../../shared/logger.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { guardedServer } from './codex-server-guard.ts'

/**
 * `sangam codex [args…]`: Codex with its app-server on a private Unix socket, so a tag can start a
 * turn in the live session (`codex-wake.ts`). codex-cli 0.171.0 has both halves: `codex app-server
 * --listen unix://PATH` serves the JSON-RPC protocol its own TUI speaks, and `codex --remote
 * unix://PATH` runs the TUI against it. The launcher starts the server (with the endpoint and its
 * own pid in the server's environment, where the session's hooks read them), waits for the socket,
 * runs the TUI attached to the terminal, and stops the server when the TUI ends, or when it is
 * told to stop; a guard stops it too when the launcher dies without doing so (SIGKILL).
 */
export interface CodexLaunch {
  readonly codexBin: string
  /** Passed to the Codex TUI after `--remote unix://…` (a prompt, `resume <id>`, flags). */
  readonly args: readonly string[]
  readonly cwd: string
  readonly sangamHome: string
  /** The environment Codex runs with (the caller's own: its CODEX_HOME, its keys). */
  readonly env: Readonly<Record<string, string>>
  /** This process: the server's lifetime is bound to it, and the hooks record it. */
  readonly launcherPid: number
  /** The node that runs the server's guard (`process.execPath`). */
  readonly nodePath: string
  readonly stopSignal: AbortSignal
  readonly log: Logger
  /** How long the app-server may take to listen (it loads its config and plugins first). */
  readonly listenTimeoutMs?: number
}

export interface CodexLaunchResult {
  readonly endpoint: string
  /** The TUI's exit code (128 + signal number when a signal ended it). */
  readonly exitCode: number
}

/** The longest path a Unix socket address holds on Linux (`sun_path` is 108 bytes with its NUL). */
const maxSocketPathBytes = 107
const defaultListenTimeoutMs = 20_000
const pollMs = 20

export async function launchCodex(launch: CodexLaunch): Promise<CodexLaunchResult> {
  const socket = prepareSocket(launch.sangamHome, launch.launcherPid)
  const endpoint = `unix://${socket}`
  const env = {
    ...launch.env,
    SANGAM_CODEX_ENDPOINT: endpoint,
    SANGAM_CODEX_LAUNCHER: String(launch.launcherPid),
  }
  // Under the guard, whose stdin is a pipe from this process: the server ends with the launcher
  // even when it is SIGKILLed (codex-server-guard.ts).
  const guarded = guardedServer(launch.nodePath, socket, launch.codexBin, [
    'app-server',
    '--listen',
    endpoint,
  ])
  const server = spawn(guarded.command, [...guarded.argv], {
    cwd: launch.cwd,
    env,
    stdio: ['pipe', 'ignore', 'pipe'],
  })
  server.stdin?.on('error', () => {})
  let serverErr = ''
  server.stderr?.on('data', (chunk: Buffer) => {
    serverErr = (serverErr + chunk.toString('utf8')).slice(-4000)
  })
  try {
    await listening(server, socket, launch.listenTimeoutMs ?? defaultListenTimeoutMs, () => serverErr)
    chmodSync(socket, 0o600)
    launch.log.debug(`codex app-server listens on ${endpoint}`)
    const exitCode = await runTui(launch, endpoint, env)
    return { endpoint, exitCode }
  } finally {
    await stop(server)
    rmSync(socket, { force: true })
  }
}

function prepareSocket(sangamHome: string, launcherPid: number): string {
  const dir = codexSocketDir(sangamHome)
  const socket = codexSocketFile(sangamHome, launcherPid)
  if (Buffer.byteLength(socket) > maxSocketPathBytes) {
    throw new SangamError(
      ErrorCode.DataDirUnusable,
      `the app-server socket ${socket} is ${Buffer.byteLength(socket)} bytes long, over the ${maxSocketPathBytes} a Unix socket path may be; use a shorter SANGAM_HOME`,
    )
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    chmodSync(dir, 0o700)
    // A socket of a launcher with this pid that was killed before it could clean up.
    rmSync(socket, { force: true })
  } catch (error) {
    throw new SangamError(ErrorCode.DataDirUnusable, `cannot prepare ${dir}: ${(error as Error).message}`)
  }
  return socket
}

function listening(
  server: ChildProcess,
  socket: string,
  timeoutMs: number,
  stderr: () => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let waited = 0
    const failed = (why: string): void => {
      clearInterval(poll)
      const tail = stderr().trim().split('\n').slice(-3).join('\n')
      reject(new SangamError(ErrorCode.VendorCliUnavailable, `${why}${tail === '' ? '' : `: ${tail}`}`))
    }
    server.once('error', (error: NodeJS.ErrnoException) =>
      failed(
        error.code === 'ENOENT'
          ? `codex is not installed (${error.message})`
          : `codex app-server: ${error.message}`,
      ),
    )
    server.once('exit', (code, signal) =>
      failed(`codex app-server exited (${signal ?? code}) before it listened`),
    )
    const poll = setInterval(() => {
      waited += pollMs
      let ready = false
      try {
        ready = statSync(socket).isSocket()
      } catch {
        ready = false
      }
      if (ready) {
        clearInterval(poll)
        server.removeAllListeners('exit')
        server.removeAllListeners('error')
        resolve()
      } else if (waited >= timeoutMs)
        failed(`codex app-server did not listen on ${socket} within ${timeoutMs} ms`)
    }, pollMs)
  })
}

function runTui(launch: CodexLaunch, endpoint: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const tui = spawn(launch.codexBin, ['--remote', endpoint, ...launch.args], {
      cwd: launch.cwd,
      env,
      stdio: 'inherit',
    })
    const onStop = (): void => {
      tui.kill('SIGTERM')
    }
    launch.stopSignal.addEventListener('abort', onStop, { once: true })
    tui.once('error', (error) => {
      launch.stopSignal.removeEventListener('abort', onStop)
      reject(
        new SangamError(ErrorCode.VendorCliUnavailable, `cannot run ${launch.codexBin}: ${error.message}`),
      )
    })
    tui.once('exit', (code, signal) => {
      launch.stopSignal.removeEventListener('abort', onStop)
      resolve(code ?? 128 + signalNumber(signal))
    })
  })
}

/** SIGTERM, then SIGKILL if the server has not gone within 3 s. */
function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.kill('SIGKILL'), 3000)
    server.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    server.kill('SIGTERM')
  })
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === null ? 0 : (osConstants.signals[signal] ?? 0)
}
