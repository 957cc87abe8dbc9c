import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import type { VendorCommand } from '../../agents/agent-vendor.ts'

/** A vendor CLI started for a turn: its process, already detached from ours. */
export interface LaunchedTurn {
  readonly pid: number
  readonly child: ChildProcess
  /** Resolves with the exit code (null when killed by a signal) once the process ends. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: string | null }>
}

export interface LaunchInput {
  readonly executable: string
  readonly command: VendorCommand
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  /** stdout and stderr are appended here (0600). */
  readonly logFile: string
}

/**
 * Starts the vendor CLI in its own process group (so `stop` can end it and whatever it spawned,
 * and it outlives the process that started it: a CLI `send` exits at once), output to the turn's
 * log, the prompt written to its stdin and stdin closed. Throws when it cannot be started (ENOENT,
 * EACCES): the caller records the turn as failed.
 */
export function launchTurn(input: LaunchInput): Promise<LaunchedTurn> {
  mkdirSync(dirname(input.logFile), { recursive: true, mode: 0o700 })
  const out = openSync(input.logFile, 'a', 0o600)
  return new Promise((resolve, reject) => {
    let child: ChildProcess
    try {
      child = spawn(input.executable, [...input.command.args], {
        cwd: input.cwd,
        env: input.env,
        detached: true,
        stdio: [input.command.stdin === null ? 'ignore' : 'pipe', out, out],
      })
    } catch (error) {
      closeSync(out)
      reject(error)
      return
    }
    closeSync(out)
    const exited = new Promise<{ code: number | null; signal: string | null }>((done) => {
      child.once('exit', (code, signal) => done({ code, signal }))
    })
    child.once('error', (error) => reject(error))
    child.once('spawn', () => {
      if (input.command.stdin !== null && child.stdin !== null) {
        // A CLI that exits before reading all of it must not crash us with EPIPE.
        child.stdin.on('error', () => {})
        child.stdin.end(input.command.stdin)
      }
      child.unref()
      resolve({ pid: child.pid as number, child, exited })
    })
  })
}
