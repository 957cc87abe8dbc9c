import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import type { BriefContext } from '../../memory/services/brief-section-source.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import type { SyncedRecord } from '../protocol/record.ts'
import { RecordApplier } from '../store/inbound.ts'
import { resetSyncState, writePresence } from '../store/state-table.ts'
import { landedFromTeam, teamPresence } from './brief-sections.ts'

const now = Date.parse('2026-11-29T12:00:00.000Z')
const reader = { human: 'bob@x.dev', vendor: null, sessionId: null }
const origin = { serverUrl: 'http://127.0.0.1:1', projectId: 'prj_1' }

async function replica() {
  const dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  const context = (cursorAt: number | null): BriefContext => ({
    db,
    cwd: dir.path,
    now,
    reader,
    cursor:
      cursorAt === null
        ? null
        : { reader: 'human:bob@x.dev', at: cursorAt, headCommit: null, mainCommit: null },
    git: { branch: null, head: null, mainBranch: null, mainHead: null },
  })
  return {
    db,
    context,
    async [Symbol.asyncDispose]() {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

function humanTurn(gseq: number, text: string, at: string): SyncedRecord {
  const actor = { human: 'alice@x.dev', vendor: 'claude' as const, sessionId: 'aaaa1111-session' }
  return {
    gseq,
    receivedAt: at,
    id: `ev_${gseq}`,
    type: 'event',
    actor,
    at,
    payload: {
      id: `ev_${gseq}`,
      kind: 'human',
      vendor: 'claude',
      cliVersion: '2.1.80',
      sessionId: actor.sessionId,
      author: actor.human,
      cwd: null,
      branch: null,
      at,
      sourcePath: '/home/alice/.claude/projects/-w/aaaa1111-session.jsonl',
      byteOffset: gseq * 100,
      part: 0,
      toolName: null,
      callId: null,
      text,
      fullSize: text.length,
      shareable: true,
    },
  }
}

test('without a team server the brief has no team sections', async () => {
  await using r = await replica()
  assert.deepEqual(teamPresence(r.context(null)), [])
  assert.deepEqual(landedFromTeam(r.context(null)), [])
})

test("the team section shows the server's presence: online first, then who was active today", async () => {
  await using r = await replica()
  resetSyncState(r.db, 'http://127.0.0.1:1', 'prj_1', now)
  writePresence(
    r.db,
    [
      {
        actor: { human: 'alice@x.dev', vendor: null, sessionId: null },
        connections: 2,
        online: true,
        lastActiveAt: null,
      },
      {
        actor: { human: 'carol@x.dev', vendor: 'codex', sessionId: 'cccc2222-x' },
        connections: 0,
        online: false,
        lastActiveAt: '2026-11-29T11:30:00.000Z',
      },
      {
        actor: { human: 'dave@x.dev', vendor: null, sessionId: null },
        connections: 0,
        online: false,
        lastActiveAt: '2026-11-20T11:30:00.000Z',
      },
    ],
    now - 5000,
  )
  const [section] = teamPresence(r.context(null))
  assert.deepEqual(section?.lines, [
    'alice@x.dev · online (2 connections)',
    "carol@x.dev's codex session cccc2222 · active 30 min ago",
  ])
})

test("teammates' work that arrived since the last brief is listed by session, with the last human turn", async () => {
  await using r = await replica()
  resetSyncState(r.db, 'http://127.0.0.1:1', 'prj_1', now)
  const applier = new RecordApplier(r.db, origin)
  applier.apply([humanTurn(1, 'old question', '2026-11-29T08:00:00.000Z')], now - 3 * 3_600_000)
  applier.apply([humanTurn(2, 'port the exporter\nto parquet', '2026-11-29T09:00:00.000Z')], now - 60_000)
  const [section] = landedFromTeam(r.context(now - 3_600_000))
  assert.equal(section?.title, 'From the team since your last brief')
  assert.deepEqual(section?.lines, [
    'alice@x.dev · claude session aaaa1111 · 1 new event(s), 3 h ago · last asked: "port the exporter to parquet"',
  ])
})

test("a session whose old events were pushed late is not called active just now: its last event's age is", async () => {
  await using r = await replica()
  resetSyncState(r.db, 'http://127.0.0.1:1', 'prj_1', now)
  // alice's session worked an hour ago; its events reached the server (and this replica) a minute ago.
  new RecordApplier(r.db, origin).apply([humanTurn(1, 'port it', '2026-11-29T11:00:00.000Z')], now - 60_000)
  writePresence(
    r.db,
    [
      {
        actor: { human: 'alice@x.dev', vendor: 'claude', sessionId: 'aaaa1111-session' },
        connections: 0,
        online: false,
        lastActiveAt: '2026-11-29T11:59:30.000Z',
      },
    ],
    now - 5000,
  )
  const [section] = teamPresence(r.context(null))
  assert.deepEqual(section?.lines, [
    "alice@x.dev's claude session aaaa1111 · last event 1 h ago (heard from just now)",
  ])
})
