import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { acknowledgeRecords, enqueueRecord, queuedRecordCount, queuedRecords } from './record-outbox.ts'

function store() {
  const dir = tmpDir()
  return openDatabaseFile(join(dir.path, 'sangam.db'))
}

test('queued drafts come back in order, as they were queued', () => {
  const db = store()
  enqueueRecord(db, { id: 'a', type: 'room.message', text: 'one' } as never, 1)
  enqueueRecord(db, { id: 'b', type: 'room.thread', title: 't' } as never, 2)
  const queued = queuedRecords(db, 10)
  assert.deepEqual(
    queued.map((q) => [q.id, q.type, (q.draft as { id: string }).id]),
    [
      ['a', 'room.message', 'a'],
      ['b', 'room.thread', 'b'],
    ],
  )
  assert.deepEqual(
    queuedRecords(db, 1).map((q) => q.id),
    ['a'],
  )
})

test('an acknowledgement removes what was pushed, not a newer version queued meanwhile', () => {
  const db = store()
  enqueueRecord(db, { id: 'p', type: 'room.presence', state: 'online' } as never, 1)
  enqueueRecord(db, { id: 'm', type: 'room.message' }, 1)
  const pushed = queuedRecords(db, 10)
  enqueueRecord(db, { id: 'p', type: 'room.presence', state: 'idle' } as never, 2)
  acknowledgeRecords(db, pushed)
  const left = queuedRecords(db, 10)
  assert.equal(queuedRecordCount(db), 1)
  assert.deepEqual(
    left.map((q) => (q.draft as { state: string }).state),
    ['idle'],
  )
})

test('a draft queued in a transaction that rolls back is not queued', () => {
  const db = store()
  assert.throws(() =>
    db.transaction(() => {
      enqueueRecord(db, { id: 'x', type: 'room.message' }, 1)
      throw new Error('the local write failed')
    })(),
  )
  assert.equal(queuedRecordCount(db), 0)
})
