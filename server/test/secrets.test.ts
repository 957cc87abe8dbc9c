import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { SyncError } from '../../src/sync/protocol/error.ts'
import type { ServerClaimRequest } from '../../src/sync/protocol/lease.ts'
import type { RecordDraft } from '../../src/sync/protocol/record.ts'
import { leaksUnder } from '../../test/helpers/leak-scan.ts'
import { samples } from '../../test/helpers/secret-samples.ts'
import { expectOk, type Reply, SyncSocket } from './helpers/sync-client.ts'
import { alice, eventDraft } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

/**
 * Defence in depth (issue 19, item 3): a client of this version refuses typed secrets and redacts
 * context before anything leaves; an older or broken one may not. The server stores no record or
 * request whose free-text fields hold a secret the scrubber knows: it refuses it `INVALID_REQUEST`
 * (which every client answers by keeping that one record on its machine), naming the field and
 * the kind, never the secret, and nothing of it reaches the project's storage.
 */
let server: TestServer
before(async () => {
  server = await startTestServer()
})
after(async () => {
  await server[Symbol.asyncDispose]()
})

const github = samples.github[0] ?? ''
const slack = samples.slackBot
const aws = samples.awsId
const stripe = samples.stripe[0] ?? ''
const jwt = samples.jwt
const every = [github, slack, aws, stripe, jwt]
const at = '2026-11-01T10:00:00.000Z'

function message(id: string, fields: Record<string, unknown>): RecordDraft {
  const payload = {
    id,
    kind: 'message' as const,
    topic: null,
    text: 'hello',
    sender: 'alice',
    human: alice.human,
    session: null,
    author: 'human' as const,
    recipients: [],
    threadId: null,
    at: 1,
    worktree: null,
    branch: null,
    head: null,
    handoff: null,
    ...fields,
  }
  return { id, type: 'room.message', actor: alice, at, payload } as RecordDraft
}

const drafts: [string, RecordDraft][] = [
  ['records.0.payload.text (the captured text', eventDraft('ev_1', alice, `token ${github}`)],
  [
    'records.0.payload.cwd',
    { ...eventDraft('ev_2'), payload: { ...eventDraft('ev_2').payload, cwd: `/w/${aws}` } },
  ],
  ['records.0.payload.recipients.1 (a recipient)', message('msg-1', { recipients: ['@bob', `@${stripe}`] })],
  [
    'records.0.payload.handoff.proof',
    message('msg-2', {
      kind: 'handoff',
      handoff: { sourceSha: null, paths: [], proof: `curl -u a:${slack}`, blocker: null, nextOwner: null },
    }),
  ],
  [
    'records.0.payload.title (the thread title)',
    {
      id: 'thr-1@1',
      type: 'room.thread',
      actor: alice,
      at,
      payload: {
        id: 'thr-1',
        title: `rotate ${jwt}`,
        reason: null,
        audience: 'agents',
        lifetime: 'durable',
        status: 'open',
        participants: [],
        paths: [],
        source: 'alice',
        opener: null,
        createdAt: 1,
        updatedAt: 1,
      },
    },
  ],
  [
    'records.0.payload.branch',
    {
      id: 'presence:claude:s1:1',
      type: 'room.presence',
      actor: alice,
      at,
      payload: {
        vendor: 'claude',
        sessionId: 's1',
        handle: 'alice',
        handleClaimed: false,
        human: alice.human,
        worktree: null,
        branch: `lane/${github}`,
        machine: 'm_0123456789abcdef',
        state: 'online',
        updatedAt: 1,
        firstSeenAt: 1,
      },
    },
  ],
  [
    'records.0.payload.value (the option value)',
    {
      id: 'option:lanes.check-command@1=x',
      type: 'room.option',
      actor: alice,
      at,
      payload: { name: 'lanes.check-command', value: `deploy --token ${slack}`, setAt: 1 },
    },
  ],
  ['records.0.actor.human', { ...message('msg-3', {}), actor: { ...alice, human: aws } }],
]

function assertRefusal(reply: Reply, where: string, what: string): void {
  assert.equal(reply.status, 400, `${what}: ${JSON.stringify(reply.body)}`)
  const { error } = reply.body as SyncError
  assert.equal(error.code, 'INVALID_REQUEST', what)
  assert.ok(error.message.startsWith(where), `${what}: ${error.message}`)
  assert.match(error.message, /holds a secret \([a-z-]+\); this server stores no secret$/, what)
  for (const secret of every)
    assert.ok(!error.message.includes(secret), `${what}: the refusal repeats a secret`)
}

test('a pushed record with a secret in any free-text field is refused whole, naming the field, and nothing is appended', async () => {
  const client = await server.newProject()
  for (const [where, draft] of drafts) {
    assertRefusal(
      await client.request('push', { body: { clientId: 'test-client-1', records: [draft] } }),
      where,
      where,
    )
    // Behind a clean record in the same push, nothing of the push is appended.
    const behind = where.replace('records.0.', 'records.1.')
    const reply = await client.request('push', {
      body: { clientId: 'test-client-1', records: [eventDraft(`ev_clean_${where.length}`), draft] },
    })
    assertRefusal(reply, behind, `${where}, second in its push`)
  }
  assert.equal((await client.pull(0)).headGseq, 0)
  await client.push([message('msg-clean', { text: 'the clean marker' })])
  assert.equal((await client.pull(0)).headGseq, 1)
})

function claim(extra: Partial<ServerClaimRequest>): ServerClaimRequest {
  return {
    actor: alice,
    patterns: ['src/a.ts'],
    reason: 'parser rewrite',
    kind: 'claim',
    ttlMs: 3_600_000,
    autoLease: 'refuse',
    ...extra,
  }
}

test('a claim, a forced release or an integration lock request holding a secret is refused; a release naming one is not', async () => {
  const client = await server.newProject()
  assertRefusal(
    await client.request('claim', { body: claim({ reason: `rotating ${slack}` }) }),
    'reason (the lease reason)',
    'reason',
  )
  assertRefusal(
    await client.request('claim', { body: claim({ patterns: ['src/a.ts', `src/${github}.ts`] }) }),
    'patterns.1 (a lease pattern)',
    'pattern',
  )
  assertRefusal(
    await client.request('claim', {
      body: claim({ kind: 'auto', reason: 'editing', patterns: [`keys/${aws}`] }),
    }),
    'patterns.0 (a lease pattern)',
    "a hook's auto-lease",
  )
  assertRefusal(
    await client.request('release', {
      body: { actor: alice, patterns: ['src/a.ts'], forceReason: `leaked ${stripe}` },
    }),
    'forceReason',
    'force reason',
  )
  // A release names leases that exist (one made before the rule can still go): it stores nothing.
  const named = await client.request('release', {
    body: { actor: alice, patterns: [`src/${github}.ts`], forceReason: null },
  })
  assert.deepEqual(expectOk<{ ok: boolean }>(named).ok, false)
  const lock = { lane: github, owner: 'alice', machine: 'm_0123456789abcdef', task: null }
  assertRefusal(await client.request('lockAcquire', { body: lock }), 'lane (the lane name)', 'lock lane')
  assertRefusal(
    await client.request('lockTakeover', {
      body: { ...lock, lane: 'tidy', reason: `stuck, token ${jwt}`, staleAfterMs: 60_000 },
    }),
    'reason (the reason for the takeover)',
    'takeover reason',
  )
  expectOk(await client.request('claim', { body: claim({}) }))
})

test("a socket's actor holding a secret is answered with an error and not stored", async () => {
  const client = await server.newProject()
  const socket = await SyncSocket.open(client.url('socket').replace(/^http/, 'ws'), client.key)
  socket.send({ type: 'subscribe', actor: { ...alice, human: github }, clientId: 'test-client-9', after: 0 })
  const error = await socket.next('error')
  assert.equal(error.error.code, 'INVALID_REQUEST')
  assert.match(error.error.message, /^actor\.human \(.*\) holds a secret \(github-token\)/)
  socket.send({ type: 'subscribe', actor: alice, clientId: 'test-client-9', after: 0 })
  await socket.next('welcome')
  socket.send({ type: 'activity', actor: { ...alice, sessionId: `s ${slack}` } })
  assert.match((await socket.next('error')).error.message, /^actor\.sessionId/)
  socket.ws.close()
})

test("no secret sent in this file reaches any byte of the server's storage", () => {
  // The scan reads what the server stored: the clean marker is there.
  assert.notDeepEqual(leaksUnder([server.dataDir], ['the clean marker']), [])
  assert.deepEqual(leaksUnder([server.dataDir], every), [])
})
