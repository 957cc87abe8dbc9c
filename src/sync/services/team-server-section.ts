import { queuedRecordCount } from '../../records/store/record-outbox.ts'
import { formatByteSize } from '../../shared/byte-size.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/database.ts'
import { sharedKinds } from '../core/share.ts'
import type { ProjectInfo } from '../protocol/project.ts'
import { OutboxReader } from '../store/outbox.ts'
import { readSyncState } from '../store/state-table.ts'
import { type Attachment, readAttachment } from './attachment.ts'
import { SyncHttpClient } from './http-client.ts'
import { refusalError } from './refusal.ts'
import { readSyncSettings } from './settings.ts'

/**
 * `doctor`'s team-server section: whether this replica is attached, whether the server answers
 * (one health and one info request, each bounded), and where this machine stands with it: what it
 * last shared and heard and when, how far behind the server's head it is, what waits in its
 * outbox, and how much of the project's storage budget is used.
 */
export interface TeamServerSection {
  readonly name: 'team-server'
  readonly status: 'ok' | 'warn'
  readonly notes: readonly string[]
  readonly attached: boolean
  readonly url: string | null
  readonly projectId: string | null
  readonly clientId: string | null
  /** null when not attached (nothing was asked). */
  readonly reachable: boolean | null
  /** How long the info request took, when it was answered. */
  readonly answeredInMs: number | null
  /** Why the server gave no usable answer (unreachable, or a refusal), when it did not. */
  readonly problem: string | null
  /** The server's head gseq; null when it was not asked or did not answer. */
  readonly headGseq: number | null
  /** The gseq of the last record applied here. */
  readonly cursor: number | null
  /** `headGseq - cursor`: records on the server not applied here yet. */
  readonly behind: number | null
  readonly lastAppliedAt: string | null
  readonly lastPushedAt: string | null
  /** Local events and room records not acknowledged by the server yet. */
  readonly outbox: { readonly events: number; readonly records: number } | null
  /** The project's storage against its budget; null from a server older than budgets, or unanswered. */
  readonly storage: { readonly usedBytes: number; readonly limitBytes: number } | null
  /** Sockets subscribed to the project right now (the team's running daemons). */
  readonly connections: number | null
}

export interface TeamServerInput {
  readonly db: Db
  /** The project's data directory, where the attachment file is. */
  readonly projectDir: string
  /** Whether this project's daemon runs here: behind or waiting without one is worth a note. */
  readonly daemonRunning: boolean
  readonly clock: Clock
  /** Bound on each request to the server. */
  readonly timeoutMs: number
}

/** Storage past this share of the budget gets a note before pushes start being refused. */
const storageWarnShare = 0.9

export async function teamServerSection(input: TeamServerInput): Promise<TeamServerSection> {
  const { db } = input
  let attachment: Attachment | null
  try {
    attachment = readAttachment(input.projectDir)
  } catch (error) {
    return { ...empty, status: 'warn', notes: [(error as Error).message] }
  }
  if (attachment === null) {
    return {
      ...empty,
      notes: [
        'not attached to a team server (solo): sangam init --server=<url> or sangam join <line> shares',
      ],
    }
  }
  const state = readSyncState(db)
  const pushedSeq = state?.pushedSeq ?? 0
  const outbox = {
    events: new OutboxReader(db).count(pushedSeq, sharedKinds(readSyncSettings(db))),
    records: queuedRecordCount(db),
  }
  const asked = await ask(attachment, input)
  const cursor = state?.cursor ?? 0
  const headGseq = asked.info?.headGseq ?? null
  const behind = headGseq === null ? null : Math.max(0, headGseq - cursor)
  const storage = asked.info?.storage ?? null
  const notes: string[] = []
  if (asked.problem !== null) notes.push(asked.problem)
  const waiting = outbox.events + outbox.records
  if (!input.daemonRunning && (waiting > 0 || (behind ?? 0) > 0))
    notes.push(
      `sangam up is not running: ${waiting} record(s) wait to be shared and ${behind ?? '?'} to be received; start it`,
    )
  if (storage !== null && storage.usedBytes >= storage.limitBytes * storageWarnShare)
    notes.push(
      `the project uses ${formatByteSize(storage.usedBytes)} of its ${formatByteSize(storage.limitBytes)} storage budget on the server; past it pushes are refused (QUOTA_EXCEEDED) and wait here: its operator raises MAX_PROJECT_BYTES (sangam serve --max-project-size)`,
    )
  const iso = (at: number | null | undefined): string | null =>
    at === null || at === undefined ? null : new Date(at).toISOString()
  return {
    name: 'team-server',
    status: notes.length === 0 ? 'ok' : 'warn',
    notes,
    attached: true,
    url: attachment.url,
    projectId: attachment.projectId,
    clientId: attachment.clientId,
    reachable: asked.problem === null,
    answeredInMs: asked.answeredInMs,
    problem: asked.problem,
    headGseq,
    cursor,
    behind,
    lastAppliedAt: iso(state?.appliedAt),
    lastPushedAt: iso(state?.pushedAt),
    outbox,
    storage,
    connections: asked.info?.connections ?? null,
  }
}

const empty: TeamServerSection = {
  name: 'team-server',
  status: 'ok',
  notes: [],
  attached: false,
  url: null,
  projectId: null,
  clientId: null,
  reachable: null,
  answeredInMs: null,
  problem: null,
  headGseq: null,
  cursor: null,
  behind: null,
  lastAppliedAt: null,
  lastPushedAt: null,
  outbox: null,
  storage: null,
  connections: null,
}

type Asked = {
  readonly info: ProjectInfo | null
  readonly answeredInMs: number | null
  readonly problem: string | null
}

/** One health and one info request, each within the bound; what they said, or why not. */
async function ask(attachment: Attachment, input: TeamServerInput): Promise<Asked> {
  const http = new SyncHttpClient(attachment, { timeoutMs: input.timeoutMs })
  try {
    await http.health()
    const startedAt = input.clock.now()
    const answer = await http.info()
    const answeredInMs = input.clock.now() - startedAt
    if (answer.ok) return { info: answer.value, answeredInMs, problem: null }
    return { info: null, answeredInMs, problem: refusalError(answer, { url: attachment.url }).message }
  } catch (error) {
    return { info: null, answeredInMs: null, problem: (error as Error).message }
  }
}

/** The section as `doctor` prints it. */
export function describeTeamServer(section: TeamServerSection): string[] {
  if (!section.attached) return [`team server: not attached (solo)`]
  const when = (at: string | null): string => at ?? 'never'
  const lines = [
    `team server ${section.status}: ${section.url} (project ${section.projectId}) ${
      section.reachable ? `answered in ${section.answeredInMs} ms` : 'gave no usable answer'
    }`,
    `  applied through gseq ${section.cursor}${
      section.headGseq === null ? '' : ` of ${section.headGseq} (${section.behind} behind)`
    }, last received ${when(section.lastAppliedAt)}, last shared ${when(section.lastPushedAt)}`,
    `  outbox ${section.outbox?.events ?? 0} event(s) and ${section.outbox?.records ?? 0} room record(s) not yet shared`,
  ]
  if (section.storage !== null)
    lines.push(
      `  storage ${formatByteSize(section.storage.usedBytes)} of ${formatByteSize(section.storage.limitBytes)} budget`,
    )
  if (section.connections !== null) lines.push(`  ${section.connections} connection(s) subscribed`)
  return [...lines, ...section.notes.map((note) => `  note: ${note}`)]
}
