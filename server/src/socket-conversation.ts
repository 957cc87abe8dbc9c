import { actorKey } from '../../src/core/leases/actor.ts'
import type { SyncLimits } from '../../src/protocol/sync/limits.ts'
import type { PresenceEntry } from '../../src/protocol/sync/presence.ts'
import { type UpstreamMessage, upstreamMessageSchema } from '../../src/protocol/sync/upstream.ts'
import type { Presence } from './presence.ts'
import type { PushRateLimiter } from './push-rate-limiter.ts'
import { type RecordLog, refuseCursorAhead } from './record-log.ts'
import { admitPush, appendDrafts } from './record-push.ts'
import { Refusal, refusalBody } from './refusal.ts'
import { parseJsonText, tooLarge } from './request-body.ts'
import type { SocketHub } from './socket-hub.ts'

const maxActorChars = 1000

export interface SocketConversationParts {
  readonly storage: DurableObjectStorage
  readonly limits: SyncLimits
  readonly records: RecordLog
  readonly presence: Presence
  readonly sockets: SocketHub
  readonly pushes: PushRateLimiter
}

/**
 * What the object says on a socket: it answers `subscribe`, `push` and `activity` (see
 * docs/protocol.md). A refused message gets an `error` message and the socket stays open, so a
 * client can correct itself without reconnecting.
 */
export class SocketConversation {
  readonly #parts: SocketConversationParts

  constructor(parts: SocketConversationParts) {
    this.#parts = parts
  }

  receive(ws: WebSocket, message: string | ArrayBuffer, now: number): void {
    let requestId: string | undefined
    try {
      const parsed = this.#parse(message)
      requestId = parsed.type === 'push' ? parsed.requestId : undefined
      this.#handle(ws, parsed, now)
    } catch (error) {
      if (!(error instanceof Refusal)) throw error
      this.#parts.sockets.send(ws, JSON.stringify({ type: 'error', requestId, ...refusalBody(error) }))
    }
  }

  /** A socket closed or failed: when it was its actor's last connection, everyone hears so. */
  closed(ws: WebSocket, now: number): void {
    const { sockets } = this.#parts
    this.#parts.pushes.forget(`connection ${sockets.connectionId(ws)}`)
    const subscription = sockets.subscription(ws)
    if (subscription === null) return
    if (!sockets.connected(ws).has(actorKey(subscription.actor))) this.#broadcastPresence(now, ws, ws)
  }

  #parse(message: string | ArrayBuffer): UpstreamMessage {
    if (typeof message !== 'string')
      throw new Refusal('INVALID_REQUEST', 'messages are JSON text, not binary')
    if (new TextEncoder().encode(message).byteLength > this.#parts.limits.maxBodyBytes)
      throw tooLarge(this.#parts.limits.maxBodyBytes)
    return parseJsonText(message, upstreamMessageSchema)
  }

  #handle(ws: WebSocket, message: UpstreamMessage, now: number): void {
    const { storage, limits, records, presence, sockets, pushes } = this.#parts
    switch (message.type) {
      case 'subscribe': {
        // The subscription lives in the socket's attachment, which the runtime caps at 2 KiB.
        if (JSON.stringify(message.actor).length > maxActorChars)
          throw new Refusal('INVALID_REQUEST', `actor: at most ${maxActorChars} characters of JSON`)
        const head = records.head()
        refuseCursorAhead(message.after, head)
        const wasOnline = sockets.connected(ws).has(actorKey(message.actor))
        sockets.subscribe(ws, message.actor, message.clientId, message.after)
        sockets.send(ws, JSON.stringify({ type: 'welcome', headGseq: head, presence: this.#presence(now) }))
        sockets.pump(ws)
        if (!wasOnline) this.#broadcastPresence(now, ws)
        presence.prune(now)
        return
      }
      case 'push': {
        const who = `connection ${sockets.connectionId(ws)}`
        admitPush(pushes, limits, who, message.records.length, now)
        const results = appendDrafts(storage, records, presence, message.records, now)
        sockets.pumpAll()
        const reply = { type: 'pushed', requestId: message.requestId, results, headGseq: records.head() }
        sockets.send(ws, JSON.stringify(reply))
        return
      }
      case 'activity':
        presence.touch([message.actor], now)
        return
    }
  }

  #presence(now: number, closing?: WebSocket): PresenceEntry[] {
    return this.#parts.presence.list(now, this.#parts.sockets.connected(closing))
  }

  /** Tells every subscribed socket but `skip` (just welcomed, or closing) who is online now. */
  #broadcastPresence(now: number, skip: WebSocket, closing?: WebSocket): void {
    const message = JSON.stringify({ type: 'presence', presence: this.#presence(now, closing) })
    this.#parts.sockets.broadcast(message, skip)
  }
}
