import WebSocket from 'ws'
import type { Logger } from '../../shared/logger.ts'
import { type DownstreamMessage, downstreamMessageSchema } from '../protocol/downstream.ts'
import { syncErrorSchema } from '../protocol/error.ts'
import { syncPath } from '../protocol/routes.ts'
import { pingMessage, type UpstreamMessage } from '../protocol/upstream.ts'
import type { SyncEndpoint } from './http-client.ts'
import { type RefusalError, readRefusal, refusalError } from './refusal.ts'
import { unreachable } from './unreachable.ts'

export interface SyncSocketOptions {
  readonly log: Logger
  readonly onMessage: (message: DownstreamMessage) => void
  /** Called once, when the socket is gone for whatever reason. */
  readonly onClose: (why: string) => void
  readonly connectTimeoutMs?: number | undefined
  /** How often an idle socket sends the keep-alive ping. */
  readonly pingEveryMs?: number | undefined
}

/**
 * The sync protocol's WebSocket half: one socket to the project's object, authenticated by the
 * Authorization header on the upgrade (never a query parameter). Messages are parsed at this edge.
 * The keep-alive ping is answered by the runtime even while the object hibernates, so a socket
 * that hears nothing for three pings is dead (a half-open TCP connection, a sleeping laptop) and
 * is closed, which is what makes the replicator reconnect.
 */
export class SyncSocket {
  readonly #ws: WebSocket
  readonly #log: Logger
  #keepAlive: NodeJS.Timeout | null = null
  #heardAt = performance.now()

  private constructor(ws: WebSocket, log: Logger) {
    this.#ws = ws
    this.#log = log
  }

  static open(endpoint: SyncEndpoint, options: SyncSocketOptions): Promise<SyncSocket> {
    const url = `${endpoint.url.replace(/^http/, 'ws')}${syncPath(endpoint.projectId, 'socket')}`
    const ws = new WebSocket(url, {
      headers: { authorization: `Bearer ${endpoint.key}` },
      // As long as an HTTP request may take (the replicator's 30 s): on a machine where a whole team
      // starts at once a handshake can be slow and still succeed, and giving up on it starts the
      // connection over from its first request.
      handshakeTimeout: options.connectTimeoutMs ?? 30_000,
    })
    const socket = new SyncSocket(ws, options.log)
    return new Promise((resolve, reject) => {
      let opened = false
      ws.once('unexpected-response', (_request, response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8')
        })
        response.on('end', () => reject(refused(endpoint.url, response.statusCode ?? 0, body)))
        response.on('error', () => reject(refused(endpoint.url, response.statusCode ?? 0, body)))
      })
      ws.once('open', () => {
        opened = true
        socket.#startKeepAlive(options.pingEveryMs ?? 20_000)
        resolve(socket)
      })
      ws.on('message', (data, isBinary) => {
        socket.#heardAt = performance.now()
        if (isBinary) return socket.#violation('a binary message')
        const parsed = downstreamMessageSchema.safeParse(parseJson(data.toString()))
        if (!parsed.success) {
          // A record of a type this sangam does not know lands here too: the whole message is
          // dropped and the socket reconnects from the cursor, so nothing is lost.
          const issue = parsed.error.issues[0]
          const where = issue === undefined ? '' : ` (${issue.path.join('.')}: ${issue.message})`
          return socket.#violation(`a message that is not the protocol${where}`)
        }
        options.onMessage(parsed.data)
      })
      ws.on('error', (error) => {
        if (!opened) reject(unreachable(endpoint.url, error.message, error))
        else options.log.debug('socket error', { error: error.message })
      })
      ws.once('close', (code, reason) => {
        socket.#stopKeepAlive()
        if (opened) options.onClose(`closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`)
      })
    })
  }

  send(message: UpstreamMessage): void {
    if (this.#ws.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify(message))
  }

  close(): void {
    this.#stopKeepAlive()
    if (this.#ws.readyState === WebSocket.CONNECTING || this.#ws.readyState === WebSocket.OPEN)
      this.#ws.close(1000, 'client closing')
    // A peer that never answers the close handshake must not keep us waiting.
    setTimeout(() => this.#ws.terminate(), 1000).unref()
  }

  #startKeepAlive(everyMs: number): void {
    this.#keepAlive = setInterval(() => {
      if (performance.now() - this.#heardAt > 3 * everyMs) {
        this.#log.info('the sync socket went silent; reconnecting')
        this.#ws.terminate()
        return
      }
      if (this.#ws.readyState === WebSocket.OPEN) this.#ws.send(pingMessage)
    }, everyMs)
    this.#keepAlive.unref()
  }

  #stopKeepAlive(): void {
    if (this.#keepAlive !== null) clearInterval(this.#keepAlive)
    this.#keepAlive = null
  }

  #violation(what: string): void {
    this.#log.warn(`the sync server sent ${what}; reconnecting`)
    this.#ws.terminate()
  }
}

function refused(url: string, status: number, body: string): RefusalError {
  const parsed = syncErrorSchema.safeParse(parseJson(body))
  return refusalError(readRefusal(status, parsed.success ? parsed.data : null), { url, action: 'socket' })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
