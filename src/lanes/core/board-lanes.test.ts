import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type BoardLane, boardLanesText, lockText } from './board-lanes.ts'

const minute = 60_000
const lane = (name: string, fields: Partial<BoardLane> = {}): BoardLane => ({
  name,
  state: 'clean',
  owner: `${name}@x.dev`,
  agent: null,
  behind: 0,
  dirty: false,
  task: null,
  next: 'nothing to do: in step with main',
  ...fields,
})

test('without lanes and without a lock the board gets no lanes lines', () => {
  assert.deepEqual(boardLanesText([], null, 0, 100), [])
})

test('each lane is one line of facts and one of its next step; a task lane names its task once', () => {
  const lines = boardLanesText(
    [
      lane('alice', {
        agent: 'claude',
        state: 'dirty',
        dirty: true,
        behind: 2,
        next: 'run sangam sync to publish this work',
      }),
      lane('bob', { state: 'task', task: 't-1', next: 'finish task t-1' }),
    ],
    { lane: 'bob', owner: 'bob@x.dev', task: 't-1', since: 0, heartbeatAt: 9 * minute, stale: false },
    10 * minute,
    100,
  )
  assert.deepEqual(lines, [
    'LANES (2)',
    '  lock: lane bob (bob@x.dev), task t-1, held 10 min',
    '  alice (alice@x.dev, claude): dirty, behind 2',
    '    next: run sangam sync to publish this work',
    '  bob (bob@x.dev, no agent): task t-1',
    '    next: finish task t-1',
  ])
})

test('a stale lock says how long it has been silent and what a human may do; lines are cut to the width', () => {
  const stale = {
    lane: 'bob',
    owner: 'bob@x.dev',
    task: null,
    since: 0,
    heartbeatAt: 5 * minute,
    stale: true,
  }
  assert.equal(lockText(stale, 65 * minute), 'lane bob (bob@x.dev), held 65 min, stale (silent 60 min)')
  assert.equal(lockText(null, 0), 'free')
  const lines = boardLanesText([lane('bob')], stale, 65 * minute, 40)
  assert.match(lines[2] ?? '', /^ {4}a human may take it over: sangam sy…$/)
  assert.ok(lines.every((line) => line.length <= 40))
})
