import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Lease } from '../../leases/protocol/lease.ts'
import type { Event } from '../../memory/protocol/event.ts'
import { downstreamMessageSchema } from './downstream.ts'
import { pullResponseSchema } from './pull.ts'
import { pushRequestSchema } from './push.ts'
import { recordDraftSchema, recordTypeNames, recordTypes, syncedRecordSchema } from './record.ts'

const actor = { human: 'alice@x.dev', vendor: 'claude' as const, sessionId: 'sess-a' }
const at = '2026-11-29T09:00:00.000Z'
const stamp = { gseq: 1, receivedAt: '2026-11-29T09:00:01.000Z' }
const event: Event = {
  id: 'ev_1',
  kind: 'human',
  vendor: 'claude',
  cliVersion: '2.1.80',
  sessionId: 'sess-a',
  author: 'alice@x.dev',
  cwd: '/repo',
  branch: 'main',
  at,
  sourcePath: null,
  byteOffset: 0,
  part: 0,
  toolName: null,
  callId: null,
  text: 'hello',
  fullSize: 5,
  shareable: true,
}
const lease: Lease = {
  pattern: 'src/**',
  holder: actor,
  kind: 'claim',
  reason: 'work',
  token: 1,
  takenAt: 0,
  renewedAt: 0,
  expiresAt: 1,
}
/** A valid payload for each type, so that a new type without one fails here first. */
const samplePayloads: Record<string, unknown> = {
  event,
  'lease.granted': { lease, renewed: false },
  'lease.released': { lease, forceReason: null },
  'room.message': {
    id: 'ev_1',
    kind: 'message',
    topic: null,
    text: 'who owns the projection?',
    sender: 'claude-lane-one',
    human: 'alice@x.dev',
    session: { vendor: 'claude', sessionId: 'sess-a' },
    recipients: ['@human'],
    threadId: null,
    at: 0,
    worktree: '/repo',
    branch: 'main',
    head: null,
    handoff: null,
  },
  'room.presence': {
    vendor: 'claude',
    sessionId: 'sess-a',
    handle: 'claude-lane-one',
    handleClaimed: false,
    human: 'alice@x.dev',
    worktree: '/work/lane-one',
    branch: 'lane-one',
    machine: 'm_0123456789abcdef',
    state: 'online',
    updatedAt: 1,
    firstSeenAt: 1,
  },
  'room.thread': {
    id: 'ev_1',
    title: 'projection',
    reason: null,
    audience: 'agents',
    lifetime: 'durable',
    status: 'open',
    participants: ['@claude-lane-one'],
    paths: [],
    source: 'claude-lane-one',
    opener: null,
    createdAt: 0,
    updatedAt: 0,
  },
  'room.option': { name: 'room.file-overlap', value: 'refuse', setAt: 1 },
  'room.worktree': {
    machine: 'm_0123456789abcdef',
    path: '/work/lane-one',
    status: 'present',
    target: 'lane-one',
    branch: 'lane-one',
    head: 'a'.repeat(40),
    base: 'b'.repeat(40),
    lastCommitAt: 1,
    uncommitted: 1,
    changes: [{ path: 'src/a.ts', ranges: [[3, 4]] }],
    truncated: false,
    updatedAt: 1,
  },
  'room.machine': { machine: 'm_0123456789abcdef', name: 'alice-laptop', updatedAt: 1 },
  'integration.event': {
    machine: 'm_0123456789abcdef',
    human: 'alice@x.dev',
    at: 1,
    type: 'sync.published-direct',
    lane: 'one',
    detail: JSON.stringify({ main: 'a'.repeat(40), task: null }),
  },
}

test('each record type has one name, and its builder makes a record its served schema accepts', () => {
  assert.equal(new Set(recordTypeNames).size, recordTypes.length, 'names are unique')
  for (const type of recordTypes) {
    assert.ok(type.name in samplePayloads, `a sample payload for ${type.name}`)
    const payload = samplePayloads[type.name] as never
    const built = type.build({ id: 'ev_1', actor, at, payload })
    assert.equal(built.type, type.name)
    const served = syncedRecordSchema.safeParse({ ...stamp, ...built })
    assert.ok(served.success, `${type.name}: ${served.error?.message}`)
    assert.equal(served.data.type, type.name)
  }
})

test('only client-authored types may be pushed; the server refuses the others as drafts', () => {
  for (const type of recordTypes) {
    const built = type.build({ id: 'ev_1', actor, at, payload: samplePayloads[type.name] as never })
    const parsed = recordDraftSchema.safeParse(built)
    assert.equal(parsed.success, type.author === 'client', type.name)
    assert.equal(type.draft === null, type.author === 'server', type.name)
  }
  const refused = pushRequestSchema.safeParse({
    clientId: 'cli_12345678',
    records: [{ id: 'x1', type: 'lease.granted', actor, at, payload: samplePayloads['lease.granted'] }],
  })
  assert.equal(refused.success, false)
  assert.deepEqual(refused.error?.issues[0]?.path, ['records', 0, 'type'])
  assert.match(
    refused.error?.issues[0]?.message ?? '',
    /a client may push event(, [a-z.]+)* records, not "lease\.granted"/,
  )
})

test('a record of a type this side does not know is refused whole at the edge, naming the type', () => {
  const unknown = { ...stamp, id: 'srv_9', type: 'message', actor, at, payload: { text: 'hi' } }
  const known = { ...stamp, ...recordTypes[0].build({ id: 'ev_1', actor, at, payload: event }) }
  for (const parsed of [
    pullResponseSchema.safeParse({ records: [known, { ...unknown, gseq: 2 }], headGseq: 2, hasMore: false }),
    downstreamMessageSchema.safeParse({
      type: 'records',
      records: [known, { ...unknown, gseq: 2 }],
      headGseq: 2,
    }),
  ]) {
    // Refused whole: the known record before it is not delivered either, so the cursor cannot
    // move past the unknown one (the replicator retries, and an upgraded sangam applies it).
    assert.equal(parsed.success, false)
    const issue = parsed.error?.issues[0]
    assert.deepEqual(issue?.path, ['records', 1, 'type'])
    assert.match(
      issue?.message ?? '',
      /unknown record type "message": this sangam knows event, lease\.granted/,
    )
  }
})

test('a room.worktree draft with a reversed range, too many paths or a bad head is refused at its path', () => {
  const sample = samplePayloads['room.worktree'] as Record<string, unknown>
  const draft = (payload: Record<string, unknown>) =>
    recordDraftSchema.safeParse({
      id: 'worktree:m_a:0123456789abcdef:1',
      type: 'room.worktree',
      actor,
      at,
      payload,
    })
  assert.equal(draft(sample).success, true)
  const reversed = draft({ ...sample, changes: [{ path: 'src/a.ts', ranges: [[9, 3]] }] })
  assert.equal(reversed.success, false)
  assert.deepEqual(reversed.error?.issues[0]?.path, ['payload', 'changes', 0, 'ranges', 0])
  const many = Array.from({ length: 501 }, (_, i) => ({ path: `src/${i}.ts`, ranges: null }))
  assert.deepEqual(draft({ ...sample, changes: many }).error?.issues[0]?.path, ['payload', 'changes'])
  assert.deepEqual(draft({ ...sample, head: 'HEAD' }).error?.issues[0]?.path, ['payload', 'head'])
})
