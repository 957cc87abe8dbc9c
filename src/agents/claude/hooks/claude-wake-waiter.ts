import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { claudeWakeSocketFile } from '../../../config/data-paths.ts'
import type { Environment } from '../../../config/environment.ts'
import { escapeControls } from '../../../shared/terminal-text.ts'
import { parseHookPayload } from '../../hook-payload.ts'
import { isSameProcess, processStart } from '../../process-identity.ts'
import { claudeWakeSupport } from '../core/claude-wake-support.ts'
import { maxWakeRequestBytes, parseWakeRequest, wakeReplyLine } from '../services/claude-wake-protocol.ts'
import {
  type ClaudeWakeRecord,
  forgetClaudeWakeRecord,
  isSafeSessionId,
  readClaudeWakeRecord,
  writeClaudeWakeRecord,
} from '../services/claude-wake-record.ts'

/**
 * The wake waiter: a Claude Code `Stop` hook installed with `asyncRewake: true` (D370). Claude
 * Code runs it in the background once a turn ends; while the session is idle it listens on a
 * private Unix socket, and when delivery hands it a tag it writes the prompt to stderr and exits
 * 2, which Claude Code turns into the next thing the model sees: a turn starts in the open
 * session, nothing typed or pasted (verified with 2.1.219 and 2.1.332, D372). One wake per waiter:
 * the woken turn's own Stop starts the next one.
 *
 * It exits 0 (nothing shown, no turn) when it should not wait: a print or SDK session, a version
 * not verified (both recorded, so `sessions` says why), not a sangam project, another waiter
 * already waiting for the same Claude Code process. It exits 0 too when its session goes: Claude
 * Code 2.1.332 ends it with SIGTERM (at exit and at the hook's timeout); 2.1.219 leaves it behind,
 * so it also watches its parent and leaves within `parentCheckMs` of Claude Code's end.
 */
export interface WaiterRun {
  readonly stdin: string
  readonly env: Environment
  /** Claude Code's version from the hook's environment (`AI_AGENT`), or null. */
  readonly version: string | null
  /** `CLAUDE_CODE_ENTRYPOINT`, or null. */
  readonly entrypoint: string | null
  /** The process's own cwd, used when the payload carries none. */
  readonly cwd: string
  /**
   * The folder of the sangam project `cwd` is in (the hooks' project locator, composed by the
   * waiter's entry point), or null when it is in none that has a store; it may throw.
   */
  readonly projectDirOf: (cwd: string) => Promise<string | null>
  readonly pid: number
  /** The waiter's parent now (`process.ppid`): the Claude Code process while it runs. */
  readonly parentPid: () => number
  readonly now: () => number
  /** Writes to stderr synchronously: Claude Code reads it once the waiter exits. */
  readonly writeStderr: (text: string) => void
  /** Settles when Claude Code ends the hook (SIGTERM, SIGHUP). */
  readonly ended: Promise<void>
  readonly parentCheckMs?: number | undefined
}

export interface WaiterResult {
  /** 2: woken (stderr holds the prompt); 0: nothing for the model. */
  readonly exitCode: 0 | 2
  readonly outcome: string
}

/** The longest path a Unix socket address holds on Linux (`sun_path`, 108 bytes with its NUL). */
const maxSocketPathBytes = 107

export async function waitForWake(run: WaiterRun): Promise<WaiterResult> {
  const quiet = (outcome: string): WaiterResult => ({ exitCode: 0, outcome })
  const payload = parseHookPayload(run.stdin)
  if (payload === null || payload.eventName !== 'Stop') return quiet('not a Stop hook payload')
  const sessionId = payload.sessionId
  if (!isSafeSessionId(sessionId)) return quiet('not a Claude Code session id')
  let projectDir: string | null
  try {
    projectDir = await run.projectDirOf(payload.cwd ?? run.cwd)
  } catch {
    return quiet('cannot find the project')
  }
  if (projectDir === null) return quiet('not a sangam project')
  const claudePid = run.parentPid()
  const record = (change: Partial<ClaudeWakeRecord>): void =>
    writeClaudeWakeRecord(
      projectDir,
      {
        sessionId,
        state: 'unsupported',
        why: null,
        version: run.version,
        waiterPid: run.pid,
        waiterStart: null,
        claudePid,
        socket: null,
        at: run.now(),
        ...change,
      },
      run.pid,
    )
  const support = claudeWakeSupport({ version: run.version, entrypoint: run.entrypoint })
  if (!support.waits) {
    // A print session is no open session: its record would only hide why its terminal one waits not.
    if (run.entrypoint === 'cli') record({ why: support.why })
    return quiet(`unsupported: ${support.why}`)
  }
  if (claudePid <= 1) return quiet('Claude Code has already ended')
  const other = readClaudeWakeRecord(projectDir, sessionId)
  if (
    other?.state === 'waiting' &&
    other.waiterPid !== null &&
    other.claudePid === claudePid &&
    isSameProcess(other.waiterPid, other.waiterStart)
  )
    return quiet('another waiter already waits for this session')
  const socket = claudeWakeSocketFile(run.env.sangamHome, run.pid)
  if (Buffer.byteLength(socket) > maxSocketPathBytes) {
    const why = `the wake socket ${socket} is over the ${maxSocketPathBytes} bytes a Unix socket path may be; use a shorter SANGAM_HOME`
    record({ why })
    return quiet(`unsupported: ${why}`)
  }
  mkdirSync(dirname(socket), { recursive: true, mode: 0o700 })
  chmodSync(dirname(socket), 0o700)
  // A socket of an earlier process with this pid that was killed before it could clean up.
  rmSync(socket, { force: true })
  return new Promise<WaiterResult>((resolve) => {
    let taken = false
    let settled = false
    const server = createServer()
    const finish = (result: WaiterResult): void => {
      if (settled) return
      settled = true
      clearInterval(watch)
      server.close()
      rmSync(socket, { force: true })
      try {
        forgetClaudeWakeRecord(projectDir, sessionId, run.pid)
      } catch {
        // Delivery checks the waiter's pid before it trusts a record: a stale one is never used.
      }
      resolve(result)
    }
    const answer = (connection: Socket, line: string): void => {
      const refuse = (why: string): void => {
        connection.end(wakeReplyLine({ ok: false, why }))
      }
      const request = parseWakeRequest(line)
      const refusal =
        request === null
          ? 'not a wake request'
          : request.sessionId !== sessionId
            ? `this waiter waits for session ${sessionId}`
            : taken || settled
              ? 'this waiter has already been woken'
              : run.parentPid() !== claudePid
                ? 'its Claude Code session has ended'
                : null
      if (request === null || refusal !== null) {
        refuse(refusal ?? 'not a wake request')
        if (!taken && run.parentPid() !== claudePid) finish(quiet('Claude Code ended'))
        return
      }
      taken = true
      // Others' words reach the terminal too ("Stop hook feedback"): escaped as any hook text (D290).
      run.writeStderr(escapeControls(request.prompt))
      // Nobody else may reach this waiter now: its socket and record go before the answer.
      server.close()
      rmSync(socket, { force: true })
      const woken: WaiterResult = { exitCode: 2, outcome: 'woken' }
      connection.on('close', () => finish(woken))
      connection.end(wakeReplyLine({ ok: true }))
    }
    server.on('connection', (connection) => {
      let buffered = ''
      connection.setEncoding('utf8')
      connection.on('error', () => {})
      connection.on('data', (chunk: string) => {
        if (buffered.length + chunk.length > maxWakeRequestBytes) {
          connection.destroy()
          return
        }
        buffered += chunk
        const end = buffered.indexOf('\n')
        if (end >= 0) {
          connection.removeAllListeners('data')
          answer(connection, buffered.slice(0, end))
        }
      })
    })
    server.on('error', (error) => finish(quiet(`cannot listen on ${socket}: ${error.message}`)))
    server.listen(socket, () => {
      try {
        chmodSync(socket, 0o600)
        record({ state: 'waiting', waiterStart: processStart(run.pid), socket })
      } catch (error) {
        finish(quiet(`cannot record the waiter: ${(error as Error).message}`))
      }
    })
    const watch = setInterval(() => {
      if (run.parentPid() !== claudePid) finish(quiet('Claude Code ended'))
    }, run.parentCheckMs ?? 1000)
    void run.ended.then(() => finish(quiet('ended by Claude Code')))
  })
}
