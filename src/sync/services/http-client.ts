import type { z } from 'zod'
import { type ClaimResult, claimResultSchema } from '../../leases/protocol/lease.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { syncErrorSchema } from '../protocol/error.ts'
import {
  type LockAcquireAnswer,
  type LockAcquireRequest,
  type LockHeartbeatRequest,
  type LockMainAnswer,
  type LockMainRequest,
  type LockReleaseRequest,
  type LockState,
  type LockTakeoverAnswer,
  type LockTakeoverRequest,
  lockAcquireAnswerSchema,
  lockHeartbeatAnswerSchema,
  lockMainAnswerSchema,
  lockReleaseAnswerSchema,
  lockStateSchema,
  lockTakeoverAnswerSchema,
} from '../protocol/integration-lock.ts'
import {
  type LeasesResponse,
  leasesResponseSchema,
  type ReleaseResult,
  releaseResultSchema,
  type ServerClaimRequest,
  type ServerReleaseRequest,
} from '../protocol/lease.ts'
import { type HealthResponse, healthResponseSchema, syncProtocolVersion } from '../protocol/limits.ts'
import { type PresenceResponse, presenceResponseSchema } from '../protocol/presence.ts'
import {
  type CreateProjectResponse,
  createProjectResponseSchema,
  type ProjectInfo,
  projectInfoSchema,
} from '../protocol/project.ts'
import { type PullResponse, pullResponseSchema } from '../protocol/pull.ts'
import { type PushRequest, type PushResponse, pushResponseSchema } from '../protocol/push.ts'
import { healthPath, type SyncAction, syncActions, syncPath } from '../protocol/routes.ts'
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
    const answer = await this.#send(
      `${this.#endpoint.url}${healthPath}`,
      'GET',
      undefined,
      healthResponseSchema,
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
    return this.#call('create', createProjectResponseSchema)
  }

  info(): Promise<SyncAnswer<ProjectInfo>> {
    return this.#call('info', projectInfoSchema)
  }

  push(request: PushRequest): Promise<SyncAnswer<PushResponse>> {
    return this.#call('push', pushResponseSchema, request)
  }

  pull(after: number, limit: number): Promise<SyncAnswer<PullResponse>> {
    return this.#call('pull', pullResponseSchema, undefined, `?after=${after}&limit=${limit}`)
  }

  leases(): Promise<SyncAnswer<LeasesResponse>> {
    return this.#call('leases', leasesResponseSchema)
  }

  claim(request: ServerClaimRequest): Promise<SyncAnswer<ClaimResult>> {
    return this.#call('claim', claimResultSchema, request)
  }

  release(request: ServerReleaseRequest): Promise<SyncAnswer<ReleaseResult>> {
    return this.#call('release', releaseResultSchema, request)
  }

  presence(): Promise<SyncAnswer<PresenceResponse>> {
    return this.#call('presence', presenceResponseSchema)
  }

  lock(): Promise<SyncAnswer<LockState>> {
    return this.#call('lock', lockStateSchema)
  }

  lockAcquire(request: LockAcquireRequest): Promise<SyncAnswer<LockAcquireAnswer>> {
    return this.#call('lockAcquire', lockAcquireAnswerSchema, request)
  }

  lockHeartbeat(request: LockHeartbeatRequest): Promise<SyncAnswer<{ alive: boolean }>> {
    return this.#call('lockHeartbeat', lockHeartbeatAnswerSchema, request)
  }

  lockRelease(request: LockReleaseRequest): Promise<SyncAnswer<{ released: boolean }>> {
    return this.#call('lockRelease', lockReleaseAnswerSchema, request)
  }

  lockMain(request: LockMainRequest): Promise<SyncAnswer<LockMainAnswer>> {
    return this.#call('lockMain', lockMainAnswerSchema, request)
  }

  lockTakeover(request: LockTakeoverRequest): Promise<SyncAnswer<LockTakeoverAnswer>> {
    return this.#call('lockTakeover', lockTakeoverAnswerSchema, request)
  }

  #call<T>(action: SyncAction, schema: z.ZodType<T>, body?: unknown, query = ''): Promise<SyncAnswer<T>> {
    const url = `${this.#endpoint.url}${syncPath(this.#endpoint.projectId, action)}${query}`
    const { method } = syncActions[action]
    return this.#send(url, method, body, schema, method === 'GET' || repeatableActions.has(action))
  }

  async #send<T>(
    url: string,
    method: string,
    body: unknown,
    schema: z.ZodType<T>,
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
    schema: z.ZodType<T>,
  ): Promise<SyncAnswer<T>> {
    const timeout = AbortSignal.timeout(this.#timeoutMs)
    const signal = this.#signal === undefined ? timeout : AbortSignal.any([timeout, this.#signal])
    const headers: Record<string, string> = { authorization: `Bearer ${this.#endpoint.key}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let status: number
    let text: string
    try {
      const init: RequestInit = { method, headers, signal }
      if (body !== undefined) init.body = JSON.stringify(body)
      const response = await fetch(url, init)
      status = response.status
      text = await response.text()
    } catch (error) {
      const why = timeout.aborted ? `no answer within ${this.#timeoutMs} ms` : describeFailure(error)
      throw unreachable(this.#endpoint.url, why, error)
    }
    const json = parseJson(text)
    if (status >= 200 && status < 300) {
      const parsed = schema.safeParse(json)
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
    const refusal = syncErrorSchema.safeParse(json)
    return { ok: false, ...readRefusal(status, refusal.success ? refusal.data : null), status }
  }
}

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

/** The socket closed before an answer came (undici's `other side closed`, a reset). */
function closedUnanswered(error: unknown): boolean {
  const cause = (error as { cause?: { cause?: { code?: unknown } } }).cause?.cause
  return cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET'
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** fetch's own message is "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is its cause. */
function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
  if (typeof cause?.code === 'string') return cause.code
  if (typeof cause?.message === 'string') return cause.message
  return error instanceof Error ? error.message : String(error)
}
