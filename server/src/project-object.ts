import { DurableObject } from 'cloudflare:workers'
import type { z } from 'zod'
import {
  lockAcquireRequestSchema,
  lockHeartbeatRequestSchema,
  lockMainRequestSchema,
  lockReleaseRequestSchema,
  lockTakeoverRequestSchema,
} from '../../src/lanes/protocol/integration-lock.ts'
import type { WireShape } from '../../src/secrets/core/wire-fields.ts'
import { systemRandom } from '../../src/shared/random.ts'
import { serverClaimRequestSchema, serverReleaseRequestSchema } from '../../src/sync/protocol/lease.ts'
import { maxPullPageBytes } from '../../src/sync/protocol/limits.ts'
import type { ProjectInfo } from '../../src/sync/protocol/project.ts'
import { pullQuerySchema } from '../../src/sync/protocol/pull.ts'
import { pushRequestSchema } from '../../src/sync/protocol/push.ts'
import { matchSyncRoute, type SyncAction } from '../../src/sync/protocol/routes.ts'
import { pingMessage, pongMessage } from '../../src/sync/protocol/upstream.ts'
import type { Vars } from './env.ts'
import { LeaseDesk } from './lease-desk.ts'
import { LeaseTable } from './lease-table.ts'
import { readLimits, readRegisteredProjects, type ServerLimits } from './limits.ts'
import { LockDesk } from './lock-desk.ts'
import { Presence } from './presence.ts'
import { httpPresenceLimits, presencePage } from './presence-page.ts'
import { authenticate, createProject } from './project-registration.ts'
import { ProjectRegistry, type ProjectStanding } from './project-registry.ts'
import type { ProjectRow } from './project-row.ts'
import { clientAddress, PushAdmission } from './push-admission.ts'
import { PushRateLimiter, type TakeResult } from './push-rate-limiter.ts'
import { RecordLog, refuseCursorAhead } from './record-log.ts'
import { admitPush, appendDrafts } from './record-push.ts'
import { failureResponse, jsonResponse, Refusal } from './refusal.ts'
import { discardBody, readJsonBody } from './request-body.ts'
import { migrate, schemaExists } from './schema.ts'
import { refuseSecrets } from './secret-check.ts'
import { SocketConversation } from './socket-conversation.ts'
import { SocketHub } from './socket-hub.ts'
import { StorageBudget } from './storage-budget.ts'

/**
 * One project: its key digest, its records in gseq order, its leases and its sockets. Cloudflare
 * runs at most one instance per project id, and each handler below runs its storage work without
 * awaiting in the middle, so ordering and arbitration need no further locking.
 */
export class ProjectObject extends DurableObject<Vars> {
  readonly #limits: ServerLimits
  readonly #records: RecordLog
  readonly #presence: Presence
  readonly #sockets: SocketHub
  readonly #conversation: SocketConversation
  readonly #pushes: PushAdmission
  readonly #leases: LeaseDesk
  readonly #lock: LockDesk
  readonly #budget: StorageBudget
  /** False until a create registers the project: until then this object writes nothing at all. */
  #exists: boolean
  /** Only in the registrar instance (see `admitCreation`). */
  #creations: { perAddress: PushRateLimiter; all: PushRateLimiter } | null = null
  /** Only in the registrar instance (see `standing`). */
  #registry: ProjectRegistry | null = null

  constructor(ctx: DurableObjectState, env: Vars) {
    super(ctx, env)
    this.#limits = readLimits(env)
    this.#exists = schemaExists(ctx.storage.sql)
    if (this.#exists) migrate(ctx.storage.sql)
    this.#records = new RecordLog(ctx.storage.sql)
    this.#budget = new StorageBudget(ctx.storage.sql, this.#limits.maxProjectBytes)
    this.#presence = new Presence(ctx.storage.sql)
    this.#sockets = new SocketHub(ctx, this.#records, systemRandom)
    this.#pushes = new PushAdmission({
      pushesPerSecond: this.#limits.sync.pushesPerSecond,
      projectPushesPerSecond: this.#limits.projectPushesPerSecond,
    })
    this.#leases = new LeaseDesk({
      storage: ctx.storage,
      leases: new LeaseTable(ctx.storage.sql),
      records: this.#records,
      presence: this.#presence,
      random: systemRandom,
    })
    this.#lock = new LockDesk(ctx.storage)
    this.#conversation = new SocketConversation({
      storage: ctx.storage,
      limits: this.#limits,
      records: this.#records,
      presence: this.#presence,
      sockets: this.#sockets,
      pushes: this.#pushes,
      budget: this.#budget,
      now: () => Date.now(),
    })
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(pingMessage, pongMessage))
  }

  override async fetch(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url)
      const match = matchSyncRoute(request.method, url.pathname)
      if (!match.ok || match.route.kind !== 'project') throw new Refusal('NOT_FOUND', 'not a project route')
      const { projectId, action } = match.route
      if (action === 'create') return await this.#create(request, projectId)
      const project = await authenticate(this.ctx.storage.sql, request, projectId, this.#exists)
      return await this.#serve(action, project, request, url)
    } catch (error) {
      await discardBody(request)
      return failureResponse(error, 'project object')
    }
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.#conversation.receive(ws, message, Date.now())
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.#conversation.closed(ws)
    // Complete the close handshake. 1005/1006/1015 describe how a socket closed and may not be sent.
    const reply = code === 1005 || code === 1006 || code === 1015 ? 1000 : code
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CLOSING) ws.close(reply, reason)
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.#conversation.closed(ws)
  }

  /**
   * Called by the Worker on the one registrar instance (a name no project id can take) before any
   * create reaches a project object: creations are limited per client address and in all, so
   * registering projects cannot fill the disk either. Counted in memory; the registrar stores only its list of ids.
   */
  admitCreation(address: string, now: number): TakeResult {
    const hour = 3_600_000
    const { projectsPerHourPerAddress: perAddress, projectsPerHour: all } = this.#limits
    this.#creations ??= {
      perAddress: new PushRateLimiter((perAddress * 1000) / hour, perAddress),
      all: new PushRateLimiter((all * 1000) / hour, all),
    }
    const own = this.#creations.perAddress.take(address, now)
    if (!own.allowed) return own
    const total = this.#creations.all.take('all', now)
    if (!total.allowed) this.#creations.perAddress.giveBack(address)
    return total
  }

  /**
   * Called by the Worker on the registrar instance for a project id it has not seen opened: whether
   * the id exists here (project-registry.ts). Only the registrar writes its list.
   */
  standing(projectId: string, now: number): ProjectStanding {
    return this.#registryAt(now).standing(projectId, now)
  }

  /** Called by the Worker on the registrar once a create succeeded, or a right key opened an adoptable id. */
  register(projectId: string, how: 'created' | 'adopted', now: number): void {
    this.#registryAt(now).register(projectId, how, now)
  }

  #registryAt(now: number): ProjectRegistry {
    this.#registry ??= new ProjectRegistry(
      this.ctx.storage.sql,
      this.#limits.adoptUnregisteredDays,
      readRegisteredProjects(this.env),
      now,
    )
    return this.#registry
  }

  async #create(request: Request, projectId: string): Promise<Response> {
    const ensureSchema = (): void => {
      if (this.#exists) return
      migrate(this.ctx.storage.sql)
      this.#exists = true
    }
    const { created, row } = await createProject(
      this.ctx.storage.sql,
      request,
      projectId,
      Date.now(),
      ensureSchema,
    )
    await discardBody(request)
    const body = { projectId, created, createdAt: new Date(row.createdAt).toISOString() }
    return jsonResponse(body, created ? 201 : 200)
  }

  async #serve(
    action: Exclude<SyncAction, 'create'>,
    project: ProjectRow,
    request: Request,
    url: URL,
  ): Promise<Response> {
    switch (action) {
      case 'info':
        return jsonResponse(this.#info(project))
      case 'push':
        return this.#push(request)
      case 'pull':
        return this.#pull(url)
      case 'presence': {
        const entries = this.#presence.list(Date.now(), this.#sockets.connected())
        const { presence, omitted } = presencePage(entries, httpPresenceLimits)
        return jsonResponse(omitted > 0 ? { presence, omitted } : { presence })
      }
      case 'socket':
        if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket')
          throw new Refusal('INVALID_REQUEST', 'this route only takes a WebSocket upgrade')
        if (this.#sockets.countOpen() >= this.#limits.maxSocketsPerProject)
          throw new Refusal(
            'TOO_MANY_CONNECTIONS',
            `this project has ${this.#limits.maxSocketsPerProject} open sockets, the most this server allows`,
            { retryAfterMs: 30_000 },
          )
        return this.#sockets.accept()
      case 'leases':
        return jsonResponse({ leases: this.#leases.live(Date.now()), fencingToken: project.fencingToken })
      case 'claim':
        return this.#claim(request)
      case 'release':
        return this.#release(request)
      case 'lock':
        return jsonResponse(this.#lock.state(Date.now()))
      case 'lockAcquire':
        return jsonResponse(
          this.#lock.acquire(await this.#body(request, lockAcquireRequestSchema, 'lock acquire'), Date.now()),
        )
      case 'lockHeartbeat':
        return jsonResponse(
          this.#lock.heartbeat(
            await this.#body(request, lockHeartbeatRequestSchema, 'lock heartbeat'),
            Date.now(),
          ),
        )
      case 'lockRelease':
        return jsonResponse(
          this.#lock.release(await this.#body(request, lockReleaseRequestSchema, null), Date.now()),
        )
      case 'lockMain':
        return jsonResponse(
          this.#lock.recordMain(await this.#body(request, lockMainRequestSchema, 'lock main'), Date.now()),
        )
      case 'lockTakeover':
        return jsonResponse(
          this.#lock.takeOver(
            await this.#body(request, lockTakeoverRequestSchema, 'lock takeover'),
            Date.now(),
          ),
        )
    }
  }

  /**
   * A lock request's body, refused if it holds a secret in a field of `shape` (null: it has no
   * text); the lock writes a little (its row, its events), so it keeps to the reserve.
   */
  async #body<T>(request: Request, schema: z.ZodType<T>, shape: WireShape | null): Promise<T> {
    const body = await readJsonBody(request, this.#limits.sync.maxBodyBytes, schema)
    if (shape !== null) refuseSecrets(shape, body)
    this.#budget.admitKeeping()
    return body
  }

  #info(project: ProjectRow): ProjectInfo {
    return {
      projectId: project.projectId,
      createdAt: new Date(project.createdAt).toISOString(),
      headGseq: this.#records.head(),
      fencingToken: project.fencingToken,
      connections: this.#sockets.countSubscribed(),
      storage: { usedBytes: this.#budget.usedBytes(), limitBytes: this.#budget.limitBytes },
    }
  }

  async #push(request: Request): Promise<Response> {
    const push = await readJsonBody(request, this.#limits.sync.maxBodyBytes, pushRequestSchema)
    const now = Date.now()
    const pusher = { address: clientAddress(request) }
    admitPush(this.#pushes, this.#limits.sync, pusher, push.records.length, now)
    this.#budget.admitRecords(push.records)
    const results = appendDrafts(this.ctx.storage, this.#records, this.#presence, push.records, now)
    this.#sockets.pumpAll()
    return jsonResponse({ results, headGseq: this.#records.head() })
  }

  async #claim(request: Request): Promise<Response> {
    const claim = await readJsonBody(request, this.#limits.sync.maxBodyBytes, serverClaimRequestSchema)
    refuseSecrets('lease claim', claim)
    this.#budget.admitKeeping()
    const result = this.#leases.claim(claim, Date.now())
    this.#sockets.pumpAll()
    return jsonResponse(result)
  }

  async #release(request: Request): Promise<Response> {
    const release = await readJsonBody(request, this.#limits.sync.maxBodyBytes, serverReleaseRequestSchema)
    refuseSecrets('lease release', release)
    this.#budget.admitKeeping()
    const result = this.#leases.release(release, Date.now())
    this.#sockets.pumpAll()
    return jsonResponse(result)
  }

  #pull(url: URL): Response {
    const query = pullQuerySchema.safeParse(Object.fromEntries(url.searchParams))
    if (!query.success)
      throw new Refusal('INVALID_REQUEST', 'after and limit must be integers (after ≥ 0, limit ≥ 1)')
    const head = this.#records.head()
    refuseCursorAhead(query.data.after, head)
    const limit = Math.min(query.data.limit, this.#limits.sync.maxPullLimit)
    const page = this.#records.page(query.data.after, limit, maxPullPageBytes)
    const body = `{"records":[${page.bodies.join(',')}],"headGseq":${head},"hasMore":${page.through < head}}`
    return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
  }
}
