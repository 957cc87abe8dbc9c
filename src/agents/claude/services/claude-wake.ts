import { statSync } from 'node:fs'
import { connect } from 'node:net'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { isSameProcess } from '../../process-identity.ts'
import type { WakeInPlace } from '../../wake-in-place.ts'
import { parseWakeReply, wakeRequestLine } from './claude-wake-protocol.ts'
import { readClaudeWakeRecord } from './claude-wake-record.ts'

/**
 * Wake in place for Claude Code (D370): an idle session open in a terminal has a wake waiter, a
 * Stop hook Claude Code runs in the background with `asyncRewake: true`
 * (agents/claude/hooks/claude-wake-waiter.ts), listening on a private Unix socket its record names
 * (`claude-wake/<session>.json`). Waking it is one request on that socket: the waiter writes the
 * prompt to its stderr, answers, and exits 2, and Claude Code starts a turn with it. The turn
 * counts as started once the waiter answers (as a Codex `turn/start` accepted does).
 */
export interface ClaudeWakeOptions {
  /** The project's data directory (the records live under it). */
  readonly projectDir: string
  /** How long the waiter may take to answer. */
  readonly timeoutMs?: number | undefined
}

const defaultTimeoutMs = 5000

export function claudeWake(options: ClaudeWakeOptions): WakeInPlace {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs
  const live = (sessionId: string) => {
    const record = readClaudeWakeRecord(options.projectDir, sessionId)
    if (record === null || record.state !== 'waiting' || record.waiterPid === null || record.socket === null)
      return null
    // A waiter killed outright (SIGKILL) leaves its record and socket: only a running one counts.
    if (!isSameProcess(record.waiterPid, record.waiterStart) || !isSocket(record.socket)) return null
    return record
  }
  return {
    endpointOf(sessionId) {
      const record = live(sessionId)
      return record === null ? null : `unix://${record.socket}`
    },
    wake: (endpoint, sessionId, prompt) => handOver(endpoint, sessionId, prompt, timeoutMs),
    unavailable(sessionId) {
      const record = readClaudeWakeRecord(options.projectDir, sessionId)
      if (record?.state === 'unsupported') return record.why ?? 'its wake waiter declined to wait'
      if (record !== null && live(sessionId) === null)
        return 'its wake waiter has ended (killed, or past its hook timeout); the next Stop starts another'
      if (record === null)
        return 'no wake waiter: its Stop hook has not started one (sangam install-hooks, then one turn of the session; a workspace not trusted or hooks turned off run none)'
      return null
    },
  }
}

function handOver(endpoint: string, sessionId: string, prompt: string, timeoutMs: number): Promise<void> {
  const gone = (why: string): SangamError =>
    new SangamError(
      ErrorCode.SessionUnreachable,
      `the Claude Code session ${sessionId} cannot be woken in place: ${why}`,
      { endpoint },
    )
  const match = /^unix:\/\/(\/.+)$/.exec(endpoint)
  const path = match?.[1]
  if (path === undefined)
    return Promise.reject(new SangamError(ErrorCode.InvalidInput, `not a unix:// wake endpoint: ${endpoint}`))
  return new Promise((resolve, reject) => {
    let settled = false
    let answer = ''
    const socket = connect(path)
    const finish = (error: SangamError | null): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      if (error === null) resolve()
      else reject(error)
    }
    const timer = setTimeout(
      () => finish(gone(`its wake waiter at ${path} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    )
    socket.setEncoding('utf8')
    socket.on('connect', () => socket.write(wakeRequestLine({ sessionId, prompt })))
    socket.on('data', (chunk: string) => {
      answer += chunk
      const end = answer.indexOf('\n')
      if (end < 0) return
      const reply = parseWakeReply(answer.slice(0, end))
      if (reply === null) return finish(gone(`its wake waiter at ${path} answered something else`))
      finish(reply.ok ? null : gone(`its wake waiter refused: ${reply.why}`))
    })
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        gone(
          error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
            ? `its wake waiter's socket ${path} no longer accepts connections (${error.code})`
            : `its wake waiter at ${path} failed: ${error.message}`,
        ),
      ),
    )
    socket.on('close', () =>
      finish(gone(`its wake waiter at ${path} closed the connection without an answer`)),
    )
  })
}

function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket()
  } catch {
    return false
  }
}
