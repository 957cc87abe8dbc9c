import { actorKey } from '../../src/identity/core/actor-names.ts'
import { type UpstreamMessage, upstreamMessageSchema } from '../../src/sync/protocol/upstream.ts'
import type { ServerLimits } from './limits.ts'
import type { Presence } from './presence.ts'
import { PresenceBroadcast } from './presence-broadcast.ts'
import { type PresencePage, presencePage, socketPresenceLimits } from './presence-page.ts'
import type { PushAdmission } from './push-admission.ts'
import { type RecordLog, refuseCursorAhead } from './record-log.ts'
import { admitPush, appendDrafts } from './record-push.ts'
import { Refusal, refusalBody } from './refusal.ts'
import { parseJsonText, tooLarge } from './request-body.ts'
import { refuseSecrets } from './secret-check.ts'
import type { SocketHub } from './socket-hub.ts'
import type { StorageBudget } from './storage-budget.ts'

const maxActorChars = 1000

export interface SocketConversationParts {
  readonly storage: DurableObjectStorage
  readonly limits: ServerLimits
  readonly records: RecordLog
  readonly presence: Presence
  readonly sockets: SocketHub
  readonly pushes: PushAdmission
  readonly budget: StorageBudget
  readonly now: () => number
}

/**
 * What the object says on a socket: it answers `subscribe`, `push` and `activity` (see
 * docs/protocol.md). A refused message gets an `error` message and the socket stays open, so a
 * client can correct itself without reconnecting.
 */
export class SocketConversation {
  readonly #parts: SocketConversationParts
  readonly #broadcast: PresenceBroadcast

  constructor(parts: SocketConversationParts) {
    this.#parts = parts
    this.#broadcast = new PresenceBroadcast({
      send: (due) => {
        const { sockets } = this.#parts
        const page = this.#presence(this.#parts.now())
        const message = presenceMessage(page)
        sockets.broadcast(message, (ws) => due(sockets.connectionId(ws)))
      },
    })
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

  /** A socket closed or failed: when it was its actor's last connection, everyone hears so (coalesced). */
  closed(ws: WebSocket): void {
    const { sockets } = this.#parts
    const connection = sockets.connectionId(ws)
    this.#parts.pushes.forget({ connection })
    this.#broadcast.forget(connection)
    const subscription = sockets.subscription(ws)
    if (subscription === null) return
    if (!sockets.connected(ws).has(actorKey(subscription.actor))) this.#broadcast.changed()
  }

  #parse(message: string | ArrayBuffer): UpstreamMessage {
    if (typeof message !== 'string')
      throw new Refusal('INVALID_REQUEST', 'messages are JSON text, not binary')
    const { maxBodyBytes } = this.#parts.limits.sync
    if (new TextEncoder().encode(message).byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes)
    return parseJsonText(message, upstreamMessageSchema)
  }

  #handle(ws: WebSocket, message: UpstreamMessage, now: number): void {
    const { storage, limits, records, presence, sockets, pushes, budget } = this.#parts
    switch (message.type) {
      case 'subscribe': {
        refuseSecrets('socket actor', message)
        // The subscription lives in the socket's attachment, which the runtime caps at 2 KiB.
        if (JSON.stringify(message.actor).length > maxActorChars)
          throw new Refusal('INVALID_REQUEST', `actor: at most ${maxActorChars} characters of JSON`)
        const head = records.head()
        refuseCursorAhead(message.after, head)
        const wasOnline = sockets.connected(ws).has(actorKey(message.actor))
        sockets.subscribe(ws, message.actor, message.clientId, message.after)
        if (!wasOnline) this.#broadcast.changed()
        const page = this.#presence(now)
        const omitted = page.omitted > 0 ? `,"presenceOmitted":${page.omitted}` : ''
        sockets.send(ws, `{"type":"welcome","headGseq":${head},"presence":${page.json}${omitted}}`)
        this.#broadcast.sent(sockets.connectionId(ws))
        sockets.pump(ws)
        presence.prune(now)
        return
      }
      case 'push': {
        const pusher = { connection: sockets.connectionId(ws) }
        admitPush(pushes, limits.sync, pusher, message.records.length, now)
        budget.admitRecords(message.records)
        const results = appendDrafts(storage, records, presence, message.records, now)
        sockets.pumpAll()
        const reply = { type: 'pushed', requestId: message.requestId, results, headGseq: records.head() }
        sockets.send(ws, JSON.stringify(reply))
        return
      }
      case 'activity':
        refuseSecrets('socket actor', message)
        budget.admitKeeping()
        presence.touch([message.actor], now)
        return
    }
  }

  #presence(now: number): PresencePage {
    const entries = this.#parts.presence.list(now, this.#parts.sockets.connected())
    return presencePage(entries, socketPresenceLimits)
  }
}

function presenceMessage(page: PresencePage): string {
  const omitted = page.omitted > 0 ? `,"omitted":${page.omitted}` : ''
  return `{"type":"presence","presence":${page.json}${omitted}}`
}
