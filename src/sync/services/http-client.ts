import type { z } from 'zod'
import type {
  LockAcquireAnswer,
  LockAcquireRequest,
  LockHeartbeatRequest,
  LockMainAnswer,
  LockMainRequest,
  LockReleaseRequest,
  LockState,
  LockTakeoverAnswer,
  LockTakeoverRequest,
} from '../../lanes/protocol/integration-lock.ts'
import type { ClaimResult } from '../../leases/protocol/lease.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type {
  LeasesResponse,
  ReleaseResult,
  ServerClaimRequest,
  ServerReleaseRequest,
} from '../protocol/lease.ts'
import type { HealthResponse } from '../protocol/limits.ts'
import type { PresenceResponse } from '../protocol/presence.ts'
import type { CreateProjectResponse, ProjectInfo } from '../protocol/project.ts'
import type { PullResponse } from '../protocol/pull.ts'
import type { PushRequest, PushResponse } from '../protocol/push.ts'
import { healthPath, type SyncAction, syncActions, syncPath } from '../protocol/routes.ts'
import { httpExchange } from './http-exchange.ts'
import { readRefusal, type ServerRefusal } from './refusal.ts'
import { unreachable } from './unreachable.ts'

/** Where a project lives on a server, and the key that opens it. */
export interface SyncEndpoint {
  readonly url: string
  readonly projectId: string
  readonly key: string
}

/**
 * A refusal is an answer (the server said no, and why); only "no answer at all" throws. A caller
 * that cannot go on turns a refusal into its error with `refusalError` (`refusal.ts`).
 */
export type SyncAnswer<T> =
  | { readonly ok: true; readonly value: T }
  | ({ readonly ok: false; readonly status: number } & ServerRefusal)

export interface SyncHttpOptions {
  /** How long one request may take before it counts as unanswered. */
  readonly timeoutMs?: number | undefined
  /** Aborts requests in flight (the daemon stopping). */
  readonly signal?: AbortSignal | undefined
}

/**
 * The sync protocol's HTTP half (docs/protocol.md), one method per route. The key goes in the
 * Authorization header and nowhere else; URLs are built from the route table the server routes by.
 * A server that cannot be reached, times out or answers something that is not the protocol throws
 * SERVER_REFUSED with `{ unreachable: true }`: the caller decides whether that means "retry" (the
 * daemon) or "unconfirmed" (a claim).
 */
export class SyncHttpClient {
  readonly #endpoint: SyncEndpoint
  readonly #timeoutMs: number
  readonly #signal: AbortSignal | undefined

  constructor(endpoint: SyncEndpoint, options: SyncHttpOptions = {}) {
    this.#endpoint = endpoint
    this.#timeoutMs = options.timeoutMs ?? 10_000
    this.#signal = options.signal
  }

  get url(): string {
    return this.#endpoint.url
  }

  /** The server's limits; refuses a server speaking another protocol version. */
  async health(): Promise<HealthResponse> {
    const { healthResponseSchema, syncProtocolVersion } = await import('../protocol/limits.ts')
    const answer = await this.#send(
      `${this.#endpoint.url}${healthPath}`,
      'GET',
      undefined,
      async () => healthResponseSchema,
      true,
    )
    if (!answer.ok) throw unreachable(this.#endpoint.url, `GET ${healthPath} answered ${answer.status}`)
    if (answer.value.protocol !== syncProtocolVersion) {
      throw new SangamError(
        ErrorCode.ServerRefused,
        `the server at ${this.#endpoint.url} speaks sync protocol ${answer.value.protocol}; this sangam speaks ${syncProtocolVersion}: upgrade whichever is older`,
      )
    }
    return answer.value
  }

  create(): Promise<SyncAnswer<CreateProjectResponse>> {
    return this.#call(
      'create',
      async () => (await import('../protocol/project.ts')).createProjectResponseSchema,
    )
  }

  info(): Promise<SyncAnswer<ProjectInfo>> {
    return this.#call('info', async () => (await import('../protocol/project.ts')).projectInfoSchema)
  }

  push(request: PushRequest): Promise<SyncAnswer<PushResponse>> {
    return this.#call('push', async () => (await import('../protocol/push.ts')).pushResponseSchema, request)
  }

  pull(after: number, limit: number): Promise<SyncAnswer<PullResponse>> {
    return this.#call(
      'pull',
      async () => (await import('../protocol/pull.ts')).pullResponseSchema,
      undefined,
      `?after=${after}&limit=${limit}`,
    )
  }

  leases(): Promise<SyncAnswer<LeasesResponse>> {
    return this.#call('leases', async () => (await import('../protocol/lease.ts')).leasesResponseSchema)
  }

  claim(request: ServerClaimRequest): Promise<SyncAnswer<ClaimResult>> {
    return this.#call(
      'claim',
      async () => (await import('../../leases/protocol/lease.ts')).claimResultSchema,
      request,
    )
  }

  release(request: ServerReleaseRequest): Promise<SyncAnswer<ReleaseResult>> {
    return this.#call(
      'release',
      async () => (await import('../protocol/lease.ts')).releaseResultSchema,
      request,
    )
  }

  presence(): Promise<SyncAnswer<PresenceResponse>> {
    return this.#call(
      'presence',
      async () => (await import('../protocol/presence.ts')).presenceResponseSchema,
    )
  }

  lock(): Promise<SyncAnswer<LockState>> {
    return this.#call('lock', async () => (await lockSchemas()).lockStateSchema)
  }

  lockAcquire(request: LockAcquireRequest): Promise<SyncAnswer<LockAcquireAnswer>> {
    return this.#call('lockAcquire', async () => (await lockSchemas()).lockAcquireAnswerSchema, request)
  }

  lockHeartbeat(request: LockHeartbeatRequest): Promise<SyncAnswer<{ alive: boolean }>> {
    return this.#call('lockHeartbeat', async () => (await lockSchemas()).lockHeartbeatAnswerSchema, request)
  }

  lockRelease(request: LockReleaseRequest): Promise<SyncAnswer<{ released: boolean }>> {
    return this.#call('lockRelease', async () => (await lockSchemas()).lockReleaseAnswerSchema, request)
  }

  lockMain(request: LockMainRequest): Promise<SyncAnswer<LockMainAnswer>> {
    return this.#call('lockMain', async () => (await lockSchemas()).lockMainAnswerSchema, request)
  }

  lockTakeover(request: LockTakeoverRequest): Promise<SyncAnswer<LockTakeoverAnswer>> {
    return this.#call('lockTakeover', async () => (await lockSchemas()).lockTakeoverAnswerSchema, request)
  }

  #call<T>(action: SyncAction, schema: AnswerSchema<T>, body?: unknown, query = ''): Promise<SyncAnswer<T>> {
    const url = `${this.#endpoint.url}${syncPath(this.#endpoint.projectId, action)}${query}`
    const { method } = syncActions[action]
    return this.#send(url, method, body, schema, method === 'GET' || repeatableActions.has(action))
  }

  async #send<T>(
    url: string,
    method: string,
    body: unknown,
    schema: AnswerSchema<T>,
    repeatable: boolean,
  ): Promise<SyncAnswer<T>> {
    try {
      return await this.#sendOnce(url, method, body, schema)
    } catch (error) {
      // A pooled connection the server closed as it was reused (its keep-alive ran out while the
      // caller worked, say between a lock's grant and its release) fails before any answer: a
      // request that means the same when repeated goes once more, on a new connection.
      if (!repeatable || !closedUnanswered(error)) throw error
      return this.#sendOnce(url, method, body, schema)
    }
  }

  async #sendOnce<T>(
    url: string,
    method: string,
    body: unknown,
    schema: AnswerSchema<T>,
  ): Promise<SyncAnswer<T>> {
    const timeout = AbortSignal.timeout(this.#timeoutMs)
    const signal = this.#signal === undefined ? timeout : AbortSignal.any([timeout, this.#signal])
    const headers: Record<string, string> = { authorization: `Bearer ${this.#endpoint.key}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let status: number
    let text: string
    try {
      const json = body === undefined ? undefined : JSON.stringify(body)
      ;({ status, text } = await httpExchange({ url, method, headers, body: json, signal }))
    } catch (error) {
      const why = timeout.aborted ? `no answer within ${this.#timeoutMs} ms` : describeFailure(error)
      throw unreachable(this.#endpoint.url, why, error)
    }
    const json = parseJson(text)
    if (status >= 200 && status < 300) {
      const parsed = (await schema()).safeParse(json)
      if (!parsed.success) {
        // A record of a type this sangam does not know lands here too: refused whole, so the
        // cursor stays before it and nothing is lost (docs/protocol.md, records).
        const issue = parsed.error.issues[0]
        const where = issue === undefined ? '' : ` (${issue.path.join('.')}: ${issue.message})`
        throw unreachable(
          this.#endpoint.url,
          `${method} ${new URL(url).pathname} answered an unknown shape${where}`,
        )
      }
      return { ok: true, value: parsed.data }
    }
    const { syncErrorSchema } = await import('../protocol/error.ts')
    const refusal = syncErrorSchema.safeParse(json)
    return { ok: false, ...readRefusal(status, refusal.success ? refusal.data : null), status }
  }
}

/**
 * A route's answer schema, loaded when the route is first asked: building every route's schemas
 * (the record stream's every record type among them) cost a `sangam claim` about 50 ms of CPU
 * for the one answer it reads (D434). Node caches each module, so later asks are a lookup.
 */
type AnswerSchema<T> = () => Promise<z.ZodType<T>>

const lockSchemas = () => import('../../lanes/protocol/integration-lock.ts')

/**
 * Requests besides GETs that mean the same when repeated. A push: the server keeps the first copy
 * of a record id, and a repeat answers `duplicate` with its gseq. A create: the same key again is
 * `created: false`. A lock heartbeat or release names its tenure's fencing token, and a second one
 * finds the first done. A record of main writes the same record again, or (an accept, a
 * compare-and-swap) finds it already written. A claim, a release of leases and a lock grant or
 * takeover are not: the first may have been granted before its connection closed.
 */
const repeatableActions: ReadonlySet<SyncAction> = new Set([
  'push',
  'create',
  'lockHeartbeat',
  'lockRelease',
  'lockMain',
])

/** The socket closed before an answer came (Node's `socket hang up`, a reset). */
function closedUnanswered(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } }).cause
  return cause?.code === 'ECONNRESET' || cause?.code === 'EPIPE'
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Node's error code (ECONNREFUSED, ENOTFOUND, ECONNRESET) says more than its message. */
function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.message : String(error)
}
