import { z } from 'zod'
import { actorKey } from '../../src/identity/core/actor-names.ts'
import { type Actor, actorSchema } from '../../src/identity/protocol/actor.ts'
import type { Random } from '../../src/shared/random.ts'
import type { Connected } from './presence.ts'
import type { RecordLog } from './record-log.ts'

/**
 * The project's WebSockets, accepted with the hibernation API: the runtime keeps them open while
 * the object sleeps, and each socket's attachment carries its subscription (actor and cursor), so
 * a woken object knows exactly what every socket has been sent.
 *
 * Delivery is a pump per socket: send the records after the socket's cursor, advance the cursor.
 * New records, subscriptions and backlogs all go through it, so every socket sees every gseq once
 * and in order. A long backlog is sent in turns of `recordsPerTurn`, yielding between turns so
 * pushes and claims are not held up by one slow catch-up.
 */
const pageRecords = 500
/** Characters per message: Cloudflare refuses WebSocket messages over 1 MiB, and text may be multibyte. */
const pageChars = 256 * 1024
const recordsPerTurn = 2000

const subscriptionSchema = z.object({
  actor: actorSchema,
  clientId: z.string(),
  /** The gseq of the last record sent on this socket. */
  sentThrough: z.number().int().nonnegative(),
})
type Subscription = z.infer<typeof subscriptionSchema>

const attachmentSchema = z.object({
  connectionId: z.string(),
  subscription: subscriptionSchema.nullable(),
})
type Attachment = z.infer<typeof attachmentSchema>

export class SocketHub {
  readonly #ctx: DurableObjectState
  readonly #records: RecordLog
  readonly #random: Random
  readonly #scheduled = new Set<string>()

  /** `random` names the connections. */
  constructor(ctx: DurableObjectState, records: RecordLog, random: Random) {
    this.#ctx = ctx
    this.#records = records
    this.#random = random
  }

  /** Accepts an (already authenticated) upgrade; the socket stays silent until it subscribes. */
  accept(): Response {
    const { 0: client, 1: server } = new WebSocketPair()
    this.#ctx.acceptWebSocket(server)
    const attachment: Attachment = { connectionId: this.#random.uuid(), subscription: null }
    attach(server, attachment)
    return new Response(null, { status: 101, webSocket: client })
  }

  connectionId(ws: WebSocket): string {
    return attachmentOf(ws).connectionId
  }

  subscription(ws: WebSocket): Subscription | null {
    return attachmentOf(ws).subscription
  }

  /** (Re)starts delivery on `ws` after `after`. The caller has checked `after` against the head. */
  subscribe(ws: WebSocket, actor: Actor, clientId: string, after: number): void {
    const attachment = attachmentOf(ws)
    attach(ws, { ...attachment, subscription: { actor, clientId, sentThrough: after } })
  }

  /** Connections per actor, from the subscribed sockets (leaving out `closing`, which is on its way out). */
  connected(closing?: WebSocket): Map<string, Connected> {
    const byActor = new Map<string, Connected>()
    for (const ws of this.#ctx.getWebSockets()) {
      const subscription = ws === closing || ws.readyState !== WebSocket.OPEN ? null : this.subscription(ws)
      if (subscription === null) continue
      const key = actorKey(subscription.actor)
      const connections = (byActor.get(key)?.connections ?? 0) + 1
      byActor.set(key, { actor: subscription.actor, connections })
    }
    return byActor
  }

  countSubscribed(): number {
    let total = 0
    for (const { connections } of this.connected().values()) total += connections
    return total
  }

  send(ws: WebSocket, message: string): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(message)
  }

  /** Sends `message` to every open subscribed socket that `to` accepts. */
  broadcast(message: string, to: (ws: WebSocket) => boolean): void {
    for (const ws of this.#ctx.getWebSockets())
      if (ws.readyState === WebSocket.OPEN && this.subscription(ws) !== null && to(ws)) ws.send(message)
  }

  /** Every socket the runtime holds for this object, subscribed or not. */
  countOpen(): number {
    return this.#ctx.getWebSockets().length
  }

  /** Delivers new records to every subscribed socket. */
  pumpAll(): void {
    for (const ws of this.#ctx.getWebSockets()) this.pump(ws)
  }

  pump(ws: WebSocket): void {
    const attachment = attachmentOf(ws)
    const subscription = attachment.subscription
    if (subscription === null || ws.readyState !== WebSocket.OPEN) return
    const head = this.#records.head()
    let sentThrough = subscription.sentThrough
    let budget = recordsPerTurn
    while (sentThrough < head && budget > 0) {
      const page = this.#records.page(sentThrough, Math.min(pageRecords, budget), pageChars)
      if (page.bodies.length === 0) break
      ws.send(`{"type":"records","records":[${page.bodies.join(',')}],"headGseq":${head}}`)
      budget -= page.bodies.length
      sentThrough = page.through
    }
    attach(ws, { ...attachment, subscription: { ...subscription, sentThrough } })
    if (sentThrough < head) this.#scheduleTurn(ws, attachment.connectionId)
  }

  #scheduleTurn(ws: WebSocket, connectionId: string): void {
    if (this.#scheduled.has(connectionId)) return
    this.#scheduled.add(connectionId)
    setTimeout(() => {
      this.#scheduled.delete(connectionId)
      this.pump(ws)
    }, 0)
  }
}

/**
 * Attachments as last written, so presence and fan-out, which read every socket's, parse each
 * once rather than on every read (200 sockets subscribing cost 40,000 parses). Empty after the
 * object wakes from hibernation; then each is parsed again from the runtime's copy.
 */
const attachments = new WeakMap<WebSocket, Attachment>()

function attach(ws: WebSocket, attachment: Attachment): void {
  ws.serializeAttachment(attachment)
  attachments.set(ws, attachment)
}

function attachmentOf(ws: WebSocket): Attachment {
  const known = attachments.get(ws)
  if (known !== undefined) return known
  const parsed = attachmentSchema.parse(ws.deserializeAttachment())
  attachments.set(ws, parsed)
  return parsed
}
