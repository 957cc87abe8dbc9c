import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import type { EventKind } from '../../memory/protocol/event.ts'
import { type EventInsert, EventWriter } from '../../memory/store/event-table.ts'
import { ensureSourceFile } from '../../memory/store/source-file-table.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { RecordApplier } from './inbound.ts'
import { OutboxReader } from './outbox.ts'
import { startSyncState } from './state-table.ts'

const shared: EventKind[] = ['human', 'assistant', 'thinking', 'tool_call', 'note']

async function store() {
  const dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  const file = ensureSourceFile(db, '/t/session.jsonl', 'claude', 0).id
  const writer = new EventWriter(db)
  let offset = 0
  const add = (kind: EventKind, fields: Partial<EventInsert> = {}): number => {
    offset += 100
    const event: EventInsert = {
      id: `ev_${offset}`,
      kind,
      vendor: 'claude',
      cliVersion: null,
      sessionId: 's',
      author: 'dev@x.dev',
      cwd: null,
      branch: null,
      at: 0,
      sourceFileId: file,
      byteOffset: offset,
      part: 0,
      toolName: null,
      callId: null,
      joinKey: null,
      text: `${kind} text`,
      fullSize: 9,
      shareable: kind !== 'tool_output',
      ...fields,
    }
    db.transaction(() => writer.insert(event))()
    return (db.prepare('SELECT seq FROM event WHERE id = ?').get(event.id) as { seq: number }).seq
  }
  return {
    db,
    add,
    outbox: new OutboxReader(db),
    async [Symbol.asyncDispose]() {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

test('the outbox holds local events of the shared kinds, in order; tool output only when shared', async () => {
  await using s = await store()
  s.add('human')
  s.add('tool_call')
  s.add('tool_output')
  s.add('system')
  s.add('assistant')
  const page = s.outbox.read(0, shared, 10)
  assert.deepEqual(
    page.events.map((entry) => entry.event.kind),
    ['human', 'tool_call', 'assistant'],
  )
  assert.equal(page.scannedTo, 5, 'not full: it looked up to the newest event')
  const withOutput = s.outbox.read(0, [...shared, 'tool_output'], 10)
  assert.equal(withOutput.events.length, 4)
  assert.equal(s.outbox.count(0, shared), 3)
})

test('a full page stops at its last event; the next read starts after the watermark', async () => {
  await using s = await store()
  for (let i = 0; i < 5; i++) s.add('human')
  const page = s.outbox.read(0, shared, 2)
  assert.deepEqual([page.events.length, page.scannedTo], [2, 2])
  assert.deepEqual(
    s.outbox.read(3, shared, 10).events.map((entry) => entry.event.seq),
    [4, 5],
  )
})

test('events applied from the server are never in the outbox', async () => {
  await using s = await store()
  s.add('human')
  startSyncState(s.db, 'http://127.0.0.1:1', 'prj_1', 0)
  new RecordApplier(s.db, { serverUrl: 'http://127.0.0.1:1', projectId: 'prj_1' }).apply(
    [
      {
        gseq: 1,
        receivedAt: '2026-11-29T10:00:00.000Z',
        id: 'ev_remote',
        type: 'event',
        actor: { human: 'alice@x.dev', vendor: 'claude', sessionId: 'r' },
        at: '2026-11-29T10:00:00.000Z',
        payload: {
          id: 'ev_remote',
          kind: 'human',
          vendor: 'claude',
          cliVersion: null,
          sessionId: 'r',
          author: 'alice@x.dev',
          cwd: null,
          branch: null,
          at: '2026-11-29T10:00:00.000Z',
          sourcePath: '/alice/r.jsonl',
          byteOffset: 0,
          part: 0,
          toolName: null,
          callId: null,
          text: 'from alice',
          fullSize: 10,
          shareable: true,
        },
      },
    ],
    0,
  )
  const page = s.outbox.read(0, shared, 10)
  assert.deepEqual(
    page.events.map((entry) => entry.event.id),
    ['ev_100'],
  )
  assert.equal(page.scannedTo, 2, 'the watermark may move past the remote event')
})

test('an assistant message is joinable until a human turn or a tool result follows it', async () => {
  await using s = await store()
  s.add('assistant', { joinKey: 'msg_1' })
  s.add('tool_call')
  const open = s.outbox.read(0, shared, 10).events[0]
  assert.deepEqual([open?.joinable, open?.closed], [true, false])
  s.add('tool_output')
  const closed = s.outbox.read(0, shared, 10).events[0]
  assert.deepEqual([closed?.joinable, closed?.closed], [true, true])
  assert.equal(s.outbox.read(0, shared, 10).events[1]?.closed, true, 'events without a join key are closed')
})
