import type { Lease, LeaseConflict } from '../../leases/protocol/lease.ts'
import { readLeaseSettings } from '../../leases/services/settings.ts'
import { replaceMirror } from '../../leases/store/lease-mirror.ts'
import { readLeases } from '../../leases/store/lease-table.ts'
import { redactServedLease } from '../../secrets/core/wire-fields.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import { type Random, systemRandom } from '../../shared/random.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import type { ConnectionLine } from '../core/connection-line.ts'
import { RecordApplier } from '../store/inbound.ts'
import { readSyncState, resetSyncState } from '../store/state-table.ts'
import { type Attachment, readAttachment, writeAttachment } from './attachment.ts'
import { type SyncAnswer, SyncHttpClient } from './http-client.ts'
import { refusalError } from './refusal.ts'

export interface AttachInput {
  readonly db: Db
  readonly projectDir: string
  /** This repository's own project id; a connection line for another project is refused. */
  readonly projectId: string
  readonly connection: ConnectionLine
  /** `create`: `init --server` registers the project with a fresh key. `join`: the project exists. */
  readonly mode: 'create' | 'join'
  readonly clock: Clock
  readonly log: Logger
  /** Called after each page of the backfill. */
  readonly onProgress?:
    | ((progress: { readonly cursor: number; readonly headGseq: number }) => void)
    | undefined
}

export interface AttachResult {
  readonly url: string
  readonly projectId: string
  /** `create` registered the project just now (false: the same key had registered it before). */
  readonly created: boolean
  readonly headGseq: number
  /** Records applied by the backfill, and how many of them were events new to this replica. */
  readonly applied: number
  readonly events: number
  /** Leases held here before attaching, now held on the server. */
  readonly leasesMoved: readonly Lease[]
  /** Leases held here that the server refused (someone holds an overlapping lease there). */
  readonly leasesRefused: readonly LeaseConflict[]
}

/** Records per pull page of the backfill. */
const pullPage = 1000
/** The server takes lease TTLs from 10 s to 7 days. */
const minTtlMs = 10_000
const maxTtlMs = 7 * 24 * 60 * 60 * 1000

/**
 * Attaches this replica to a team server: checks the key (join) or registers the project (create)
 * before anything changes here, moves leases taken locally to the server, backfills every record
 * from gseq 0, mirrors the server's leases, and only then writes the attachment. A wrong key, a
 * taken project id or an unreachable server leave nothing attached; an interrupted backfill leaves
 * no attachment either, and running the command again starts it over (what was applied stays).
 */
export async function attachToServer(input: AttachInput): Promise<AttachResult> {
  const { connection, db, clock } = input
  if (connection.projectId !== input.projectId) throw otherProject(connection.projectId, input.projectId)
  const previous = readAttachment(input.projectDir)
  const http = new SyncHttpClient(connection, { timeoutMs: 30_000 })
  await http.health()
  const created = input.mode === 'create' ? await register(http, connection) : await verify(http, connection)
  // Leases granted here while no server was attached move there; once attached the server has them.
  const moved =
    previous === null ? await moveLocalLeases(input, http) : { leasesMoved: [], leasesRefused: [] }
  resetSyncState(db, connection.url, connection.projectId, clock.now())
  const backfill = await backfillFromZero(input, http)
  const { leases, fencingToken } = expect(await http.leases(), connection.url)
  db.transaction(() => replaceMirror(db, leases.map(redactServedLease), fencingToken)).immediate()
  const attachment: Attachment = {
    url: connection.url,
    projectId: connection.projectId,
    clientId: previous?.url === connection.url ? previous.clientId : newClientId(),
    key: connection.key,
    attachedAt: new Date(clock.now()).toISOString(),
  }
  writeAttachment(input.projectDir, attachment)
  input.log.info('attached to the team server', { url: connection.url, project: connection.projectId })
  return { url: connection.url, projectId: connection.projectId, created, ...backfill, ...moved }
}

/**
 * Checks a connection line against its server (reachable, and the key opens the project) without
 * touching anything here: `join` asks before it moves this checkout to the line's project id.
 */
export async function checkConnection(connection: ConnectionLine): Promise<void> {
  const http = new SyncHttpClient(connection, { timeoutMs: 30_000 })
  await http.health()
  await verify(http, connection)
}

/** A fresh project key: 32 random bytes, base64url (43 characters). */
export function newProjectKey(random: Random = systemRandom): string {
  return Buffer.from(random.bytes(32)).toString('base64url')
}

/** Names this replica to the server: random, one per attachment. */
export function newClientId(random: Random = systemRandom): string {
  return `cli_${Buffer.from(random.bytes(12)).toString('base64url')}`
}

async function register(http: SyncHttpClient, connection: ConnectionLine): Promise<boolean> {
  const answer = await http.create()
  if (answer.ok) return answer.value.created
  throw refusalError(answer, {
    url: connection.url,
    explain: {
      PROJECT_TAKEN: `project ${connection.projectId} is already registered on ${connection.url} under another key: ask whoever created it for the line \`sangam connection\` prints, then run sangam join with it`,
    },
  })
}

async function verify(http: SyncHttpClient, connection: ConnectionLine): Promise<boolean> {
  const answer = await http.info()
  if (answer.ok) return false
  throw refusalError(answer, {
    url: connection.url,
    explain: {
      UNAUTHORIZED: `${connection.url} does not know project ${connection.projectId} under this key (a wrong or old key, or another server); nothing was changed here. Ask a teammate to run sangam connection and paste its line again`,
    },
  })
}

async function moveLocalLeases(
  input: AttachInput,
  http: SyncHttpClient,
): Promise<{ leasesMoved: Lease[]; leasesRefused: LeaseConflict[] }> {
  const now = input.clock.now()
  const settings = readLeaseSettings(input.db)
  const leasesMoved: Lease[] = []
  const leasesRefused: LeaseConflict[] = []
  for (const lease of readLeases(input.db, now)) {
    const left = lease.expiresAt - now
    if (left < minTtlMs) continue
    const answer = expect(
      await http.claim({
        actor: lease.holder,
        patterns: [lease.pattern],
        reason: lease.reason,
        kind: lease.kind,
        ttlMs: Math.min(left, maxTtlMs),
        autoLease: settings.autoLease,
      }),
      input.connection.url,
    )
    if (answer.granted) leasesMoved.push(...answer.leases.map(({ renewed: _renewed, ...moved }) => moved))
    else leasesRefused.push(...answer.conflicts)
  }
  return { leasesMoved, leasesRefused }
}

async function backfillFromZero(
  input: AttachInput,
  http: SyncHttpClient,
): Promise<{ headGseq: number; applied: number; events: number }> {
  const applier = new RecordApplier(input.db, {
    serverUrl: input.connection.url,
    projectId: input.connection.projectId,
  })
  let applied = 0
  let events = 0
  for (;;) {
    const cursor = readSyncState(input.db)?.cursor ?? 0
    const page = expect(await http.pull(cursor, pullPage), input.connection.url)
    const outcome = page.records.length === 0 ? null : applier.apply(page.records, input.clock.now())
    applied += outcome?.applied ?? 0
    events += outcome?.events ?? 0
    input.onProgress?.({ cursor: outcome?.cursor ?? cursor, headGseq: page.headGseq })
    if (!page.hasMore) return { headGseq: page.headGseq, applied, events }
  }
}

function expect<T>(answer: SyncAnswer<T>, url: string): T {
  if (answer.ok) return answer.value
  throw refusalError(answer, { url })
}

function otherProject(theirs: string, ours: string): SangamError {
  return new SangamError(
    ErrorCode.InvalidInput,
    `the connection line is for project ${theirs}, but this checkout is project ${ours}; sangam join moves a checkout to the line's project before it attaches`,
  )
}
