import { Agent, request as httpRequest } from 'node:http'
import WebSocket from 'ws'
import type { Actor } from '../../../src/identity/protocol/actor.ts'
import { type DownstreamMessage, downstreamMessageSchema } from '../../../src/sync/protocol/downstream.ts'
import type { SyncError } from '../../../src/sync/protocol/error.ts'
import type { PullResponse } from '../../../src/sync/protocol/pull.ts'
import type { PushResponse } from '../../../src/sync/protocol/push.ts'
import type { RecordDraft, SyncedRecord } from '../../../src/sync/protocol/record.ts'
import { type SyncAction, syncPath } from '../../../src/sync/protocol/routes.ts'

/**
 * A minimal client of the sync protocol for tests and the benchmark: it speaks the documented
 * HTTP and WebSocket shapes and nothing more (the real client, with its outbox, lives in the daemon).
 */
export interface Reply {
  readonly status: number
  readonly body: unknown
  readonly headers: Headers
}

export class SyncClient {
  readonly baseUrl: string
  readonly projectId: string
  readonly key: string

  constructor(baseUrl: string, projectId: string, key: string) {
    this.baseUrl = baseUrl
    this.projectId = projectId
    this.key = key
  }

  url(action: SyncAction, query = ''): string {
    return `${this.baseUrl}${syncPath(this.projectId, action)}${query}`
  }

  request(
    action: SyncAction,
    init: { method?: string; body?: unknown; query?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body)
    const method = init.method ?? (payload === undefined ? 'GET' : 'POST')
    const headers = { ...init.headers, authorization: `Bearer ${this.key}` }
    return httpJson(this.url(action, init.query), method, headers, payload)
  }

  async create(): Promise<Reply> {
    return this.request('create', { method: 'POST' })
  }

  /** Pushes, and waits out RATE_LIMITED answers as a real client does (the server says how long). */
  async push(records: readonly RecordDraft[], clientId = 'test-client-1'): Promise<PushResponse> {
    for (;;) {
      const reply = await this.request('push', { body: { clientId, records } })
      if (reply.status !== 429) return expectOk<PushResponse>(reply)
      const { retryAfterMs } = (reply.body as SyncError).error
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs ?? 100))
    }
  }

  async pull(after: number, limit?: number): Promise<PullResponse> {
    const query = `?after=${after}${limit === undefined ? '' : `&limit=${limit}`}`
    return expectOk<PullResponse>(await this.request('pull', { query }))
  }

  /** Pulls page after page from `after` until the server says there is no more. */
  async pullAll(after = 0, limit?: number): Promise<{ records: SyncedRecord[]; pages: number }> {
    const records: SyncedRecord[] = []
    let cursor = after
    let pages = 0
    for (;;) {
      const page = await this.pull(cursor, limit)
      pages += 1
      records.push(...page.records)
      cursor = page.records.at(-1)?.gseq ?? cursor
      if (!page.hasMore) return { records, pages }
    }
  }

  /** Opens a socket and subscribes after `after`. */
  async subscribe(actor: Actor, after: number, clientId = 'test-client-1'): Promise<SyncSocket> {
    const socket = await SyncSocket.open(this.url('socket').replace(/^http/, 'ws'), this.key)
    socket.send({ type: 'subscribe', actor, clientId, after })
    await socket.next('welcome')
    return socket
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 128 })

/**
 * One HTTP request over a shared keep-alive agent. node:http rather than fetch: a thousand
 * concurrent requests then queue on the agent's sockets instead of opening a thousand connections.
 */
export function httpJson(
  url: string,
  method: string,
  headers: Record<string, string>,
  payload?: string | undefined,
): Promise<Reply> {
  const sent = { ...headers }
  if (payload !== undefined) {
    sent['content-type'] = 'application/json'
    sent['content-length'] = String(Buffer.byteLength(payload))
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers: sent, agent }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        const responseHeaders = new Headers()
        for (const [name, value] of Object.entries(response.headers))
          if (typeof value === 'string') responseHeaders.set(name, value)
        resolve({
          status: response.statusCode ?? 0,
          body: text === '' ? null : JSON.parse(text),
          headers: responseHeaders,
        })
      })
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

export function expectOk<T>(reply: Reply): T {
  if (reply.status < 200 || reply.status > 299)
    throw new Error(`expected success, got ${reply.status}: ${JSON.stringify(reply.body)}`)
  return reply.body as T
}

/** A WebSocket whose downstream messages are parsed and queued, so tests await them in order. */
export class SyncSocket {
  readonly ws: WebSocket
  readonly #queue: DownstreamMessage[] = []
  #waiter: (() => void) | null = null
  #closed = false

  private constructor(ws: WebSocket) {
    this.ws = ws
    ws.on('message', (data) => {
      this.#queue.push(downstreamMessageSchema.parse(JSON.parse(String(data))))
      this.#waiter?.()
    })
    ws.on('close', () => {
      this.#closed = true
      this.#waiter?.()
    })
    // A reset connection (a crashed server) is seen as the close that follows it.
    ws.on('error', () => undefined)
  }

  static open(url: string, key: string | null): Promise<SyncSocket> {
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` }
    const ws = new WebSocket(url, { headers })
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new SyncSocket(ws)))
      ws.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused with ${response.statusCode}`)),
      )
      ws.once('error', reject)
    })
  }

  get closed(): boolean {
    return this.#closed
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** The next message of `type`, skipping others (e.g. presence) that arrive first. */
  async next<T extends DownstreamMessage['type']>(
    type: T,
    timeoutMs = 30_000,
  ): Promise<Extract<DownstreamMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = this.#queue.findIndex((message) => message.type === type)
      if (index >= 0) return this.#queue.splice(index, 1)[0] as Extract<DownstreamMessage, { type: T }>
      if (this.#closed) throw new Error(`socket closed while waiting for ${type}`)
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw new Error(`no ${type} message within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining)
        this.#waiter = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.#waiter = null
    }
  }

  /** Collects `records` messages until a record with gseq `through` has arrived. */
  async recordsThrough(through: number, timeoutMs = 30_000): Promise<SyncedRecord[]> {
    const records: SyncedRecord[] = []
    while ((records.at(-1)?.gseq ?? 0) < through)
      records.push(...(await this.next('records', timeoutMs)).records)
    return records
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve()
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve())
      this.ws.close()
    })
  }

  /** Drops the connection without a close handshake, as a network failure would. */
  drop(): void {
    this.ws.terminate()
  }
}
