import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { RoomThread } from '../../protocol/room/thread.ts'
import { deriveBoard } from './board.ts'
import { boardText } from './board-text.ts'
import type { RoomDirectory } from './directory.ts'

function thread(id: string, fields: Partial<RoomThread>): RoomThread {
  return {
    id,
    title: `title ${id}`,
    reason: null,
    audience: 'agents',
    lifetime: 'durable',
    status: 'open',
    participants: [],
    paths: [],
    source: 'ana',
    opener: null,
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  }
}

const directory: RoomDirectory = {
  agents: [
    {
      handle: 'busy',
      vendor: 'claude',
      sessionId: 's1',
      human: 'ana',
      state: 'idle',
      worktree: '/w/one',
      branch: null,
      machine: 'm',
      updatedAt: 0,
    },
    {
      handle: 'gone',
      vendor: 'codex',
      sessionId: 's2',
      human: 'ana',
      state: 'offline',
      worktree: '/w/two',
      branch: null,
      machine: 'm',
      updatedAt: 0,
    },
  ],
  worktrees: [
    { target: 'one', path: '/w/one', machine: 'm', branch: null },
    { target: 'two', path: '/w/two', machine: 'm', branch: null },
  ],
  humans: ['ana'],
  people: [{ handle: 'ana', name: 'ana', state: 'online', machines: ['m1'] }],
}

test('closed is done, open human-loop is blocked, an active participant is doing, else backlog', () => {
  const board = deriveBoard(
    [
      thread('t-done', { status: 'closed', audience: 'human-loop', participants: ['@busy'] }),
      thread('t-blocked', {
        audience: 'human-loop',
        participants: ['@gone', '@human'],
        reason: 'pick a schema',
      }),
      thread('t-doing', { participants: ['@gone', '@busy'], updatedAt: 2 }),
      thread('t-doing-worktree', { participants: ['#one'], updatedAt: 1 }),
      thread('t-backlog', { participants: ['@gone', '#two'] }),
    ],
    directory,
  )
  assert.deepEqual(
    Object.fromEntries(
      Object.entries(board).map(([column, cards]) => [column, cards.map((card) => card.threadId)]),
    ),
    {
      backlog: ['t-backlog'],
      doing: ['t-doing', 't-doing-worktree'],
      blocked: ['t-blocked'],
      done: ['t-done'],
    },
  )
  assert.deepEqual(board.doing[0]?.owners, ['@busy'])
  assert.equal(board.blocked[0]?.detail, 'waiting on a human: pick a schema')
})

test('the text board fits the width it is given', () => {
  const board = deriveBoard([thread('t1', { title: 'a very long title '.repeat(10) })], directory)
  for (const width of [60, 100, 200]) {
    for (const line of boardText(board, width).split('\n'))
      assert.ok(line.length <= width, `${width}: ${line}`)
  }
  assert.match(boardText(board, 40), /^BACKLOG \(1\)/)
})
