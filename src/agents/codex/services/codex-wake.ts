import { statSync } from 'node:fs'
import WebSocket from 'ws'
import { isAlive } from '../../../shared/process-alive.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { Db } from '../../../store/db.ts'
import type { WakeInPlace } from '../../wake-in-place.ts'
import { readCodexEndpoint } from '../store/codex-endpoint-table.ts'

/**
 * Wake in place for Codex: a session started through `sangam codex` lives in an app-server that
 * listens on a private Unix socket (its hook recorded which, `codex_endpoint`). Starting a turn in
 * it is what the Codex TUI itself does over that socket (verified with codex-cli 0.171.0): a
 * WebSocket handshake over the socket, JSON-RPC `initialize`, the `initialized` notification, then
 * `turn/start {threadId, input: [{type: "text", text}]}`. The app-server answers `turn/start` as
 * soon as the turn is accepted (status `inProgress`), and the TUI attached to the thread shows it
 * like a prompt its human typed. Every connection is one request: connect, start, close.
 */
export interface CodexWakeOptions {
  readonly db: Db
  /** How long the app-server may take to accept the connection and the turn. */
  readonly timeoutMs?: number
  /** Names this client in the app-server's `initialize` (its user agent). */
  readonly clientVersion: string
}

const defaultTimeoutMs = 10_000

export function codexWake(options: CodexWakeOptions): WakeInPlace {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs
  return {
    endpointOf(sessionId) {
      const recorded = readCodexEndpoint(options.db, sessionId)
      if (recorded === null) return null
      // The launcher kills its server on the way out, so a dead launcher means a dead server even
      // when the socket file was left behind (a launcher killed with SIGKILL).
      if (!isAlive(recorded.launcherPid)) return null
      const path = socketPathOf(recorded.endpoint)
      return path !== null && isSocket(path) ? recorded.endpoint : null
    },
    wake: (endpoint, sessionId, prompt) =>
      startTurn(endpoint, sessionId, prompt, timeoutMs, options.clientVersion),
  }
}

/** The socket path of a `unix://PATH` endpoint, or null for any other form. */
export function socketPathOf(endpoint: string): string | null {
  const match = /^unix:\/\/(\/.+)$/.exec(endpoint)
  return match?.[1] ?? null
}

function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket()
  } catch {
    return false
  }
}

interface RpcReply {
  readonly id?: unknown
  readonly result?: unknown
  readonly error?: { readonly message?: unknown } | unknown
}

function startTurn(
  endpoint: string,
  sessionId: string,
  prompt: string,
  timeoutMs: number,
  clientVersion: string,
): Promise<void> {
  const path = socketPathOf(endpoint)
  if (path === null) {
    return Promise.reject(
      new SangamError(ErrorCode.InvalidInput, `not a unix:// app-server endpoint: ${endpoint}`),
    )
  }
  const gone = (why: string): SangamError =>
    new SangamError(
      ErrorCode.SessionUnreachable,
      `the Codex session ${sessionId} cannot be woken in place: ${why}`,
      { endpoint },
    )
  if (!isSocket(path)) {
    return Promise.reject(gone(`its app-server socket ${path} is gone (its sangam codex has ended)`))
  }
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws+unix://${path}:/`, { handshakeTimeout: timeoutMs })
    let settled = false
    const finish = (error: SangamError | null): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.removeAllListeners('message')
      // A socket still connecting cannot be closed cleanly; terminate drops it either way.
      socket.terminate()
      if (error === null) resolve()
      else reject(error)
    }
    const timer = setTimeout(
      () => finish(gone(`its app-server at ${path} did not accept the turn within ${timeoutMs} ms`)),
      timeoutMs,
    )
    const send = (message: Record<string, unknown>): void => socket.send(JSON.stringify(message))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? `its app-server socket ${path} no longer accepts connections (${error.code})`
          : `its app-server at ${path} failed: ${error.message}`
      finish(gone(why))
    })
    socket.on('close', () => finish(gone(`its app-server at ${path} closed the connection`)))
    socket.on('open', () =>
      send({
        id: 1,
        method: 'initialize',
        params: {
          clientInfo: { name: 'sangam', title: 'sangam', version: clientVersion },
          capabilities: { experimentalApi: false, requestAttestation: false },
        },
      }),
    )
    socket.on('message', (data) => {
      const reply = parseReply(String(data))
      if (reply === null || (reply.id !== 1 && reply.id !== 2)) return
      const refusal = refusalOf(reply)
      if (refusal !== null) {
        const what = reply.id === 1 ? 'initialize' : 'turn/start'
        return finish(gone(`its app-server refused ${what}: ${refusal}`))
      }
      if (reply.id === 2) return finish(null)
      send({ method: 'initialized' })
      send({
        id: 2,
        method: 'turn/start',
        params: { threadId: sessionId, input: [{ type: 'text', text: prompt, text_elements: [] }] },
      })
    })
  })
}

function parseReply(text: string): RpcReply | null {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as RpcReply) : null
  } catch {
    return null
  }
}

function refusalOf(reply: RpcReply): string | null {
  if (reply.error === undefined || reply.error === null) return null
  const message = (reply.error as { message?: unknown }).message
  return typeof message === 'string' ? message : JSON.stringify(reply.error)
}
