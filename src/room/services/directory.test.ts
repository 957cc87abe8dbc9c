import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { queuedRecords } from '../../records/store/record-outbox.ts'
import { recordAppliers } from '../../sync/store/record-appliers.ts'
import { readMachine, writeMachine } from '../store/machine-table.ts'
import { readPresence } from '../store/presence-table.ts'
import { loadDirectory } from './directory.ts'
import { shareMachineName } from './machine-names.ts'
import { recordPresence } from './presence.ts'

function store() {
  return openDatabaseFile(join(tmpDir().path, 'sangam.db'))
}

const base = { human: 'ana@example.com', branch: 'main', machine: 'm_local', state: 'online' } as const

test('presence is one row per session and one queued record per change; no change writes nothing', () => {
  const db = store()
  recordPresence(db, { ...base, vendor: 'claude', sessionId: 's1', worktree: '/w/lane-one' }, 1000)
  recordPresence(db, { ...base, vendor: 'claude', sessionId: 's1', worktree: '/w/lane-one' }, 2000)
  recordPresence(
    db,
    { ...base, vendor: 'claude', sessionId: 's1', worktree: '/w/lane-one', state: 'idle' },
    3000,
  )
  const rows = readPresence(db)
  assert.equal(rows.length, 1)
  assert.equal(rows[0]?.state, 'idle')
  assert.equal(rows[0]?.handle, 'claude-lane-one')
  assert.deepEqual(
    queuedRecords(db, 10).map((q) => q.id),
    ['presence:claude:s1:1', 'presence:claude:s1:2'],
  )
})

test('a second session in the same worktree gets -2, and keeps it', () => {
  const db = store()
  recordPresence(db, { ...base, vendor: 'claude', sessionId: 's1', worktree: '/w/lane-one' }, 1000)
  recordPresence(db, { ...base, vendor: 'claude', sessionId: 's2', worktree: '/w/lane-one' }, 2000)
  recordPresence(
    db,
    { ...base, vendor: 'claude', sessionId: 's1', worktree: '/w/lane-one', state: 'offline' },
    3000,
  )
  recordPresence(
    db,
    { ...base, vendor: 'claude', sessionId: 's2', worktree: '/w/lane-one', state: 'idle' },
    4000,
  )
  const dir = loadDirectory(db, { machine: 'm_local', worktrees: [] })
  assert.deepEqual(
    dir.agents.map((a) => [a.sessionId, a.handle, a.state]),
    [
      ['s1', 'claude-lane-one', 'offline'],
      ['s2', 'claude-lane-one-2', 'idle'],
    ],
  )
})

test("a remote record applies when newer, keeps its machine, and adds the remote's worktree", () => {
  const db = store()
  const applier = recordAppliers['room.presence'].open(db)
  const record = (change: number, state: 'online' | 'idle', updatedAt: number) => ({
    id: `presence:codex:r1:${change}`,
    type: 'room.presence' as const,
    actor: { human: 'bo@example.com', vendor: 'codex' as const, sessionId: 'r1' },
    at: new Date(updatedAt).toISOString(),
    gseq: change,
    receivedAt: new Date(updatedAt).toISOString(),
    payload: {
      vendor: 'codex' as const,
      sessionId: 'r1',
      handle: 'codex-far',
      handleClaimed: false,
      human: 'bo@example.com',
      worktree: '/remote/far',
      branch: 'feature',
      machine: 'm_remote',
      state,
      updatedAt,
      firstSeenAt: 100,
    },
  })
  assert.equal(applier.apply(record(2, 'idle', 2000), 0), true)
  assert.equal(applier.apply(record(1, 'online', 1000), 0), false, 'an older record loses')
  assert.equal(applier.apply(record(2, 'idle', 2000), 0), false, 'a repeat changes nothing')
  const dir = loadDirectory(db, { machine: 'm_local', worktrees: [], blocked: new Set(['codex:r1']) })
  assert.deepEqual(
    dir.agents.map((a) => [a.handle, a.state, a.machine]),
    [['codex-far', 'blocked', 'm_remote']],
  )
  assert.deepEqual(dir.worktrees, [
    { target: 'far', path: '/remote/far', machine: 'm_remote', branch: 'feature' },
  ])
  assert.deepEqual(dir.humans, ['bo@example.com'])
  assert.equal(queuedRecords(db, 10).length, 0, 'applied records are not pushed back')
})

test('a human in chat has presence too: a person with a handle from the name, never "human", never an agent', () => {
  const db = store()
  recordPresence(
    db,
    {
      ...base,
      vendor: 'human',
      sessionId: 'chat-1',
      worktree: null,
      branch: null,
      human: 'Ana.Lee@example.com',
    },
    1000,
  )
  recordPresence(
    db,
    { ...base, vendor: 'human', sessionId: 'chat-2', worktree: null, branch: null, human: 'human' },
    2000,
  )
  const dir = loadDirectory(db, { machine: 'm_local', worktrees: [] })
  assert.deepEqual(dir.agents, [])
  assert.deepEqual(
    dir.people.map((person) => [person.name, person.handle, person.state]),
    [
      ['Ana.Lee@example.com', 'ana-lee', 'online'],
      ['human', 'human-1', 'online'],
    ],
  )
  const queued = queuedRecords(db, 10)[0]?.draft as { actor: { vendor: unknown; sessionId: unknown } }
  assert.deepEqual(queued.actor, { human: 'Ana.Lee@example.com', vendor: null, sessionId: 'chat-1' })
})

test('a person is one actor: their chats on two machines and their agents fold into one, by one handle', () => {
  const db = store()
  const bob = { human: 'bob@example.com', branch: null, worktree: null } as const
  recordPresence(db, { ...bob, vendor: 'human', sessionId: 'chat-b', machine: 'm_b', state: 'offline' }, 1000)
  recordPresence(db, { ...bob, vendor: 'human', sessionId: 'chat-a', machine: 'm_a', state: 'online' }, 2000)
  recordPresence(
    db,
    { ...bob, vendor: 'codex', sessionId: 'x1', worktree: '/w/bob', machine: 'm_b', state: 'idle' },
    3000,
  )
  const dir = loadDirectory(db, { machine: 'm_a', worktrees: [], human: 'ana@example.com' })
  assert.deepEqual(
    dir.agents.map((agent) => [agent.vendor, agent.handle]),
    [['codex', 'codex-bob']],
  )
  assert.deepEqual(dir.people, [
    { handle: 'ana', name: 'ana@example.com', state: 'offline', machines: ['m_a'] },
    { handle: 'bob', name: 'bob@example.com', state: 'online', machines: ['m_a', 'm_b'] },
  ])
  assert.deepEqual(dir.humans, ['ana@example.com', 'bob@example.com'])
})

test("each machine's person is a person of the room, offline, on that machine, before any chat or session (D380)", () => {
  const db = store()
  const applier = recordAppliers['room.machine'].open(db)
  applier.apply(
    {
      id: 'machine:m_far:1',
      type: 'room.machine',
      actor: { human: 'cy@example.com', vendor: null, sessionId: null },
      at: new Date(1000).toISOString(),
      gseq: 1,
      receivedAt: new Date(1000).toISOString(),
      payload: { machine: 'm_far', name: 'cy-box', updatedAt: 1000 },
    },
    1000,
  )
  const dir = loadDirectory(db, { machine: 'm_local', worktrees: [], human: 'ana@example.com' })
  assert.deepEqual(
    dir.people.map((person) => [person.handle, person.name, person.state, person.machines]),
    [
      ['ana', 'ana@example.com', 'offline', ['m_local']],
      ['cy', 'cy@example.com', 'offline', ['m_far']],
    ],
  )
})

test("a machine's name row from before its person was kept goes out again with the person; then nothing more", () => {
  const db = store()
  const machine = { id: 'm_local', name: 'ana-box' }
  // As a replica migrated from schema 30 holds it: the name shared, the person not kept.
  writeMachine(db, { machine: 'm_local', name: 'ana-box', updatedAt: 1000, change: 1, human: null })
  assert.equal(shareMachineName(db, machine, 'ana@example.com', 2000), true)
  assert.deepEqual(
    queuedRecords(db, 10).map((queued) => [
      queued.id,
      (queued.draft as { actor: { human: string } }).actor.human,
    ]),
    [['machine:m_local:2', 'ana@example.com']],
  )
  assert.equal(readMachine(db, 'm_local')?.human, 'ana@example.com')
  assert.equal(shareMachineName(db, machine, 'ana@example.com', 3000), false, 'nothing changed: nothing sent')
})
