import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { RoomThread } from '../protocol/thread.ts'
import { type Board, type BoardFacts, deriveBoard } from './board.ts'
import { boardText } from './board-text.ts'
import type { DirectoryAgent, RoomDirectory } from './directory.ts'

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
      // Idle for a minute at the tests' `now`.
      updatedAt: 10 * 60 * 60 * 1000 - 60_000,
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

const hour = 60 * 60 * 1000
const now = 10 * hour
const facts = (threads: readonly RoomThread[], posts: BoardFacts['posts'] = []): BoardFacts => ({
  threads,
  directory,
  posts,
  doingWindowMs: 4 * hour,
})
const columnsOf = (board: Board) =>
  Object.fromEntries(
    Object.entries(board).map(([column, cards]) => [column, cards.map((card) => card.threadId)]),
  )

test('closed is done, open human-loop is blocked, a participant working is doing, else backlog', () => {
  const board = deriveBoard(
    facts([
      thread('t-done', { status: 'closed', audience: 'human-loop', participants: ['@busy'] }),
      thread('t-blocked', {
        audience: 'human-loop',
        participants: ['@gone', '@human'],
        reason: 'pick a schema',
      }),
      thread('t-doing', { participants: ['@gone', '@busy'], updatedAt: 2 }),
      thread('t-doing-worktree', { participants: ['#one'], updatedAt: 1 }),
      thread('t-backlog', { participants: ['@gone', '#two'] }),
    ]),
    now,
  )
  assert.deepEqual(columnsOf(board), {
    backlog: ['t-backlog'],
    doing: ['t-doing', 't-doing-worktree'],
    blocked: ['t-blocked'],
    done: ['t-done'],
  })
  assert.deepEqual(board.doing[0]?.owners, ['@busy'])
  assert.equal(board.blocked[0]?.detail, 'waiting on a human: pick a schema')
})

test('a human who opened a thread is not working on it; a post within the window is, by anyone', () => {
  const threads = [
    thread('t-opened', { participants: ['@human'], updatedAt: 3 }),
    thread('t-named', { participants: ['@ana', '#two'], updatedAt: 2 }),
    thread('t-posted', { participants: ['@human'], updatedAt: 1 }),
    thread('t-old-post', { participants: ['@human'] }),
  ]
  const board = deriveBoard(
    facts(threads, [
      { threadId: 't-posted', poster: '@human', at: now - 4 * hour + 1 },
      { threadId: 't-old-post', poster: '@human', at: now - 4 * hour },
    ]),
    now,
  )
  assert.deepEqual(columnsOf(board), {
    backlog: ['t-opened', 't-named', 't-old-post'],
    doing: ['t-posted'],
    blocked: [],
    done: [],
  })
  assert.deepEqual(board.doing[0]?.owners, ['@human'])
  assert.equal(board.backlog[0]?.detail, 'nobody working on it')
})

test('an agent works while D135 counts it active: online under 4 h, idle under 30 min, never blocked or in chat', () => {
  const agent = (
    handle: string,
    state: DirectoryAgent['state'],
    age: number,
    vendor = 'claude',
  ): DirectoryAgent => ({
    handle,
    vendor,
    sessionId: handle,
    human: 'ana',
    state,
    worktree: `/w/${handle}`,
    branch: null,
    machine: 'm',
    updatedAt: now - age,
  })
  const agents = [
    agent('turn', 'online', 3 * hour),
    agent('hung', 'online', 5 * hour),
    agent('paused', 'idle', 20 * 60_000),
    agent('left', 'idle', 40 * 60_000),
    agent('waiting', 'blocked', 0),
    agent('asha', 'online', 0, 'human'),
  ]
  const threads = agents.map((each) => thread(`t-${each.handle}`, { participants: [`@${each.handle}`] }))
  const board = deriveBoard({ ...facts(threads), directory: { ...directory, agents } }, now)
  assert.deepEqual(board.doing.map((card) => card.threadId).sort(), ['t-paused', 't-turn'])
  // A poster not among the participants is an owner too, after those working.
  const posted = deriveBoard(
    {
      ...facts([thread('t', { participants: ['@turn'] })], [{ threadId: 't', poster: '@human', at: now }]),
      directory: { ...directory, agents },
    },
    now,
  )
  assert.deepEqual(posted.doing[0]?.owners, ['@turn', '@human'])
})

test('at 80 columns the board is a list: every id whole, titles that differ only at their end told apart', () => {
  const long = 'Merge conflict: src/room/services/very/deep/folder/of/the/project'
  const board = deriveBoard(
    facts([
      thread('thr-0123456789ab', { title: `${long}/alpha.ts`, updatedAt: 2 }),
      thread('thr-ba9876543210', { title: `${long}/omega.ts`, updatedAt: 1 }),
    ]),
    now,
  )
  for (const width of [80, 120]) {
    const text = boardText(board, width)
    for (const line of text.split('\n')) assert.ok(line.length <= width, `${width}: ${line}`)
    assert.match(text, /thr-0123456789ab/)
    assert.match(text, /thr-ba9876543210/)
    assert.match(text, /alpha\.ts/)
    assert.match(text, /omega\.ts/)
  }
  const list = boardText(board, 80).split('\n')
  assert.deepEqual(list.slice(0, 2), [
    'BACKLOG (2)',
    `  thr-0123456789ab  ${long.slice(0, 30)}…${`${long}/alpha.ts`.slice(-29)}`,
  ])
  assert.match(boardText(board, 80), /^DOING \(0\)\n {2}—$/m)
  // Side by side from 118 columns: four headings on the first line.
  assert.match(
    boardText(board, 120).split('\n')[0] ?? '',
    /^BACKLOG \(2\) +DOING \(0\) +BLOCKED \(0\) +DONE \(0\)$/,
  )
  assert.match(boardText(board, 117).split('\n')[0] ?? '', /^BACKLOG \(2\)$/)
})

test('the text board fits the width it is given', () => {
  const board = deriveBoard(facts([thread('t1', { title: 'a very long title '.repeat(10) })]), now)
  for (const width of [20, 60, 100, 200]) {
    for (const line of boardText(board, width).split('\n'))
      assert.ok(line.length <= width, `${width}: ${line}`)
  }
  assert.match(boardText(board, 40), /^BACKLOG \(1\)/)
})
