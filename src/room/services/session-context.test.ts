import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import type { RoomMessage } from '../protocol/message.ts'
import { insertMessage } from '../store/message-table.ts'
import { writePresence } from '../store/presence-table.ts'
import { writeThread } from '../store/thread-table.ts'
import { takeSessionContext } from './session-context.ts'

const now = Date.parse('2026-12-02T04:00:00Z')
const worktree = '/work/lane-one'
const session = {
  vendor: 'claude',
  sessionId: 's-1',
  worktree,
  machine: 'm_0000000000000001',
  worktrees: ['/work/main', worktree],
  budget: 2000,
  now,
}

function message(id: string, text: string, recipients: string[], at = now - 1000): RoomMessage {
  return {
    id,
    kind: 'message',
    topic: null,
    text,
    sender: 'codex-lane-two',
    human: 'asha',
    session: { vendor: 'codex', sessionId: 's-2' },
    author: 'agent',
    recipients,
    threadId: null,
    at,
    worktree: '/work/lane-two',
    branch: 'lane-two',
    head: null,
    handoff: null,
  }
}

async function store() {
  const dir = tmpDir()
  const file = join(dir.path, 'sangam.db')
  const db = openDatabaseFile(file)
  writePresence(db, {
    vendor: 'claude',
    sessionId: 's-1',
    handle: 'claude-lane-one',
    handleClaimed: false,
    human: 'asha',
    worktree,
    branch: 'lane-one',
    machine: session.machine,
    state: 'online',
    updatedAt: now - 5000,
    firstSeenAt: now - 5000,
    change: 1,
  })
  return {
    db,
    file,
    async [Symbol.asyncDispose]() {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

test('an answer that never went out (settle false) moves nothing: the messages come again', async () => {
  await using s = await store()
  insertMessage(s.db, message('msg-000000000001', 'rebase please', ['@claude-lane-one']), null)
  const first = takeSessionContext(s.db, session)
  assert.equal(first.shown, 1)
  first.settle(false)
  const again = takeSessionContext(s.db, session)
  assert.equal(again.shown, 1, 'carried again: at least once')
  again.settle(true)
  const after = takeSessionContext(s.db, session)
  assert.equal(after.text, '', 'delivered once, never again')
  after.settle(true)
})

test('a hook killed before it committed (the connection gone mid-transaction) loses nothing', async () => {
  await using s = await store()
  insertMessage(s.db, message('msg-000000000001', 'rebase please', ['#lane-one']), null)
  takeSessionContext(s.db, session)
  s.db.close() // the process dies here: SQLite drops the open transaction
  const db = openDatabaseFile(s.file)
  try {
    const next = takeSessionContext(db, session)
    assert.match(next.text, /rebase please/)
    next.settle(true)
  } finally {
    db.close()
  }
})

test("a new session looks back a day, not at the room's whole history", async () => {
  await using s = await store()
  insertMessage(s.db, message('msg-000000000001', 'old news', [], now - 2 * 24 * 60 * 60_000), null)
  insertMessage(s.db, message('msg-000000000002', 'fresh news', []), null)
  const context = takeSessionContext(s.db, session)
  context.settle(true)
  assert.equal(context.shown, 1)
  assert.match(context.text, /fresh news/)
  assert.doesNotMatch(context.text, /old news/)
})

test('a message pulled late (an old `at`, a new local seq) still reaches a session that has a cursor', async () => {
  await using s = await store()
  takeSessionContext(s.db, session).settle(true)
  insertMessage(
    s.db,
    message('msg-000000000003', 'sent while offline', ['@claude-lane-one'], now - 3 * 24 * 60 * 60_000),
    7,
  )
  const context = takeSessionContext(s.db, session)
  context.settle(true)
  assert.match(context.text, /sent while offline/)
})

test("a post into a thread reaches its participants' sessions, by #worktree or @handle, and not the rest of the room", async () => {
  await using s = await store()
  const thread = (id: string, participants: string[]) =>
    writeThread(
      s.db,
      {
        id,
        title: 'who owns the schema',
        reason: null,
        audience: 'agents',
        lifetime: 'durable',
        status: 'open',
        participants,
        paths: [],
        source: 'asha',
        opener: null,
        createdAt: now - 10_000,
        updatedAt: now - 10_000,
      },
      null,
    )
  thread('thr-lane', ['@human', '#lane-one'])
  thread('thr-handle', ['@human', '@claude-lane-one'])
  thread('thr-other', ['@human', '#lane-two', '@codex-lane-two'])
  const inThread = (id: string, text: string, threadId: string, recipients: string[] = []) => ({
    ...message(id, text, recipients),
    sender: 'asha',
    session: null,
    author: 'human' as const,
    threadId,
  })
  insertMessage(s.db, inThread('msg-000000000001', 'by worktree', 'thr-lane'), null)
  insertMessage(s.db, inThread('msg-000000000002', 'by handle', 'thr-handle'), null)
  insertMessage(s.db, inThread('msg-000000000003', 'not yours', 'thr-other'), null)
  insertMessage(s.db, inThread('msg-000000000004', 'named in it', 'thr-other', ['@claude-lane-one']), null)
  const context = takeSessionContext(s.db, session)
  context.settle(true)
  assert.equal(context.shown, 3)
  assert.match(context.text, /by worktree/)
  assert.match(context.text, /asha in thr-lane at/, 'a thread post names its thread, not the room')
  assert.match(context.text, /by handle/)
  assert.match(context.text, /named in it/)
  assert.doesNotMatch(context.text, /not yours/, "a thread's post is not the whole room's")
})
