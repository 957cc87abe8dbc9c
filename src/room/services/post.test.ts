import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { queuedRecordCount, queuedRecords } from '../../records/store/record-outbox.ts'
import { ManualClock } from '../../shared/clock.ts'
import { systemRandom } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import { recordAppliers } from '../../sync/store/record-appliers.ts'
import type { RoomDirectory } from '../core/directory.ts'
import { messageCount } from '../store/message-table.ts'
import { openHumanLoopOpeners } from '../store/thread-table.ts'
import { roomBoard } from './board.ts'
import { handoff } from './handoff.ts'
import { post } from './post.ts'
import { readMessages } from './read.ts'
import type { RoomScope } from './room-scope.ts'
import { closeThread, listThreads, openThread } from './threads.ts'

const directory: RoomDirectory = {
  agents: [
    {
      handle: 'claude-lane-one',
      vendor: 'claude',
      sessionId: 's1',
      human: 'ana',
      state: 'online',
      worktree: '/w/lane-one',
      branch: 'main',
      machine: 'm1',
      updatedAt: 0,
    },
  ],
  worktrees: [{ target: 'lane-one', path: '/w/lane-one', machine: 'm1', branch: 'main' }],
  humans: ['ana'],
  people: [{ handle: 'ana', name: 'ana', state: 'online', machines: ['m1'] }],
}

function room(db: Db = openDatabaseFile(join(tmpDir().path, 'sangam.db'))) {
  const clock = new ManualClock(Date.parse('2026-12-01T23:00:00Z'))
  const git = { worktree: '/w/lane-one', branch: 'main', head: 'abc123' }
  const agentScope: RoomScope = {
    db,
    clock,
    random: systemRandom,
    directory,
    poster: {
      sender: 'claude-lane-one',
      actor: { human: 'ana', vendor: 'claude', sessionId: 's1' },
      author: 'agent',
      git,
    },
  }
  const humanScope: RoomScope = {
    ...agentScope,
    poster: { sender: 'ana', actor: { human: 'ana', vendor: null, sessionId: null }, author: 'human', git },
  }
  return { db, clock, agentScope, humanScope }
}

const plain = { to: [], kind: 'message', topic: null, threadId: null } as const

test('a post is stored and queued for the team in one go, with its git context and recipients', () => {
  const { db, humanScope } = room()
  const message = post(humanScope, {
    ...plain,
    text: ' who owns #lane-one? `@param` ',
    to: ['@claude-lane-one'],
  })
  assert.equal(message.text, 'who owns #lane-one? `@param`')
  assert.deepEqual(message.recipients, ['@claude-lane-one', '#lane-one'])
  assert.equal(message.head, 'abc123')
  assert.deepEqual(
    queuedRecords(db, 10).map((record) => [record.type, record.id]),
    [['room.message', message.id]],
  )
})

test("a post carries its author as the channel told it; one naming an agent session is an agent's whatever the channel said", () => {
  const { agentScope, humanScope } = room()
  assert.equal(post(humanScope, { ...plain, text: 'typed' }).author, 'human')
  assert.equal(
    post({ ...humanScope, poster: { ...humanScope.poster, author: 'unknown' } }, { ...plain, text: 'piped' })
      .author,
    'unknown',
  )
  assert.equal(
    post({ ...agentScope, poster: { ...agentScope.poster, author: 'human' } }, { ...plain, text: 'agent' })
      .author,
    'agent',
  )
})

test('refused posts store nothing and queue nothing', () => {
  const { db, humanScope } = room()
  for (const text of [
    '   ',
    'x'.repeat(4001),
    'AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  ]) {
    assert.throws(() => post(humanScope, { ...plain, text }), { code: 'INVALID_INPUT' })
  }
  assert.throws(() => post(humanScope, { ...plain, text: 'hi', to: ['@nobody'] }), { code: 'INVALID_INPUT' })
  assert.equal(messageCount(db), 0)
  assert.equal(queuedRecordCount(db), 0)
})

test('a mention with a space after the @ addresses its recipient; one nobody holds is refused naming it as written', () => {
  const { db, humanScope } = room()
  const spaced = post(humanScope, { ...plain, text: '@ claude-lane-one inspect ＃lane-one' })
  assert.deepEqual(spaced.recipients, ['@claude-lane-one', '#lane-one'])
  assert.throws(() => post(humanScope, { ...plain, text: 'ask @ project-manager to review' }), {
    code: 'INVALID_INPUT',
    message:
      /nobody in the room is called "@project-manager".*a mention in the text \(written "@ project-manager"\): put it in `backticks`/,
  })
  // `--to` takes the same forms.
  assert.deepEqual(post(humanScope, { ...plain, text: 'hello', to: ['@ claude-lane-one'] }).recipients, [
    '@claude-lane-one',
  ])
  assert.equal(messageCount(db), 2)
})

test('the same post again within the retry window is the same message', () => {
  const { db, clock, humanScope } = room()
  const first = post(humanScope, { ...plain, text: 'deploying now' })
  clock.advance(1000)
  assert.equal(post(humanScope, { ...plain, text: 'deploying now' }).id, first.id)
  clock.advance(11 * 60_000)
  assert.notEqual(post(humanScope, { ...plain, text: 'deploying now' }).id, first.id)
  assert.equal(messageCount(db), 2)
})

test('threads: human-loop includes @human and blocks its opener; a post joins; a closed thread refuses posts', () => {
  const { db, clock, agentScope, humanScope } = room()
  const thread = openThread(agentScope, {
    title: 'Pick the schema',
    reason: null,
    audience: 'human-loop',
    lifetime: 'durable',
    participants: [],
    paths: ['src/schema.ts'],
  })
  assert.deepEqual(thread.participants, ['@claude-lane-one', '@human'])
  assert.deepEqual([...openHumanLoopOpeners(db)], ['claude:s1'])
  assert.equal(roomBoard(db, directory, clock.now()).blocked[0]?.threadId, thread.id)
  clock.advance(10)
  post(humanScope, { ...plain, text: 'use v2', threadId: thread.id })
  assert.equal(listThreads(db, { all: false })[0]?.updatedAt, clock.now())
  const closed = closeThread(humanScope, thread.id)
  assert.equal(closed.status, 'closed')
  assert.equal(openHumanLoopOpeners(db).size, 0)
  assert.throws(() => post(humanScope, { ...plain, text: 'one more', threadId: thread.id }), {
    code: 'INVALID_INPUT',
    message: /is closed/,
  })
  assert.throws(() => post(humanScope, { ...plain, text: 'x', threadId: 'thr-nope' }), { code: 'NOT_FOUND' })
  assert.deepEqual(listThreads(db, { all: false }), [])
  assert.equal(roomBoard(db, directory, clock.now()).done[0]?.threadId, thread.id)
  assert.equal(
    queuedRecords(db, 10).filter((record) => record.type === 'room.thread').length,
    3,
    'open, the post into it, close',
  )
})

test('a handoff carries its fields and renders them into its text, addressed to the next owner', () => {
  const { agentScope } = room()
  const message = handoff(agentScope, {
    text: 'projection done',
    to: [],
    topic: null,
    threadId: null,
    handoff: { sourceSha: null, paths: ['src/p.ts'], proof: 'npm test', blocker: null, nextOwner: '@human' },
  })
  assert.equal(message.kind, 'handoff')
  assert.equal(message.handoff?.sourceSha, 'abc123')
  assert.deepEqual(message.recipients, ['@human'])
  assert.match(message.text, /- paths: src\/p\.ts\n- proof: npm test\n- blocker: none\n- next owner: @human/)
})

test('read: server-ordered by gseq, then local by seq; our post echoed back takes its gseq, never twice', () => {
  const { db, clock, humanScope } = room()
  const mine = post(humanScope, { ...plain, text: 'mine, offline' })
  clock.advance(1)
  const later = post(humanScope, { ...plain, text: 'second, offline' })
  const apply = recordAppliers['room.message'].open(db)
  const served = (gseq: number, message: typeof mine) => ({
    id: message.id,
    type: 'room.message' as const,
    actor: { human: 'ana', vendor: null, sessionId: null },
    at: new Date(message.at).toISOString(),
    payload: message,
    gseq,
    receivedAt: new Date(message.at).toISOString(),
  })
  const theirs = { ...mine, id: 'msg-theirs00000', text: 'from machine B', sender: 'bo', human: 'bo' }
  assert.equal(apply.apply(served(1, theirs), 0), true)
  assert.equal(apply.apply(served(2, mine), 0), false, 'the echo is not new')
  assert.deepEqual(
    readMessages(db, { after: null, limit: 10 }).map((message) => message.text),
    ['from machine B', 'mine, offline', 'second, offline'],
  )
  assert.deepEqual(
    readMessages(db, { after: theirs.id, limit: 10 }).map((message) => message.id),
    [mine.id, later.id],
  )
  assert.deepEqual(
    readMessages(db, { after: mine.id, limit: 10 }).map((message) => message.id),
    [later.id],
  )
  assert.equal(messageCount(db), 3)
  assert.throws(() => readMessages(db, { after: 'msg-nope', limit: 1 }), { code: 'NOT_FOUND' })
})

test('a thread state pulled out of order never replaces a newer one', () => {
  const { db, clock, humanScope } = room()
  const open = openThread(humanScope, {
    title: 'Lane split',
    reason: null,
    audience: 'agents',
    lifetime: 'temporary',
    participants: [],
    paths: [],
  })
  clock.advance(5)
  closeThread(humanScope, open.id)
  const apply = recordAppliers['room.thread'].open(db)
  const record = {
    id: `${open.id}@${open.updatedAt}`,
    type: 'room.thread' as const,
    actor: humanScope.poster.actor,
    at: new Date(open.updatedAt).toISOString(),
    payload: open,
    gseq: 7,
    receivedAt: new Date(open.updatedAt).toISOString(),
  }
  assert.equal(apply.apply(record, 0), false)
  assert.equal(listThreads(db, { all: true })[0]?.status, 'closed')
})
