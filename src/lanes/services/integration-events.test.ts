import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { queuedRecords } from '../../records/store/record-outbox.ts'
import { recordDraftSchema } from '../../sync/protocol/record.ts'
import { applyIntegrationEvent, readIntegrationEvents } from '../store/integration-event-table.ts'
import {
  boundedDetail,
  maxIntegrationPayloadChars,
  recordIntegrationEvent,
  shareIntegrationBacklog,
} from './integration-events.ts'

function store() {
  return openDatabaseFile(join(tmpDir().path, 'sangam.db'))
}

const origin = { machine: 'm_00000000000000aa', human: 'alice@x.dev' }

test('an integration event is queued for the team with it, and a replica keeps each record once', () => {
  const db = store()
  recordIntegrationEvent(
    db,
    origin,
    { type: 'sync.published-direct', lane: 'one', payload: { main: 'abc' } },
    10,
  )
  const [queued] = queuedRecords(db, 10)
  assert.ok(queued)
  const draft = recordDraftSchema.parse(queued.draft)
  assert.equal(draft.id, 'integration:m_00000000000000aa:1')
  assert.equal(draft.type, 'integration.event')

  const other = store()
  const payload = draft.payload as never
  assert.equal(applyIntegrationEvent(other, draft.id, payload), true)
  assert.equal(applyIntegrationEvent(other, draft.id, payload), false, 'a second delivery adds nothing')
  // Its own record, echoed back by the server: already here under that id.
  assert.equal(applyIntegrationEvent(db, draft.id, payload), false)
  assert.deepEqual(
    readIntegrationEvents(other, 10).map((event) => [event.type, event.lane, event.machine, event.human]),
    [['sync.published-direct', 'one', 'm_00000000000000aa', 'alice@x.dev']],
  )
})

test('events recorded before they were shared are shared once, as this machine’s', () => {
  const db = store()
  db.prepare(
    "INSERT INTO integration_event (at, type, lane, payload) VALUES (5, 'lane.created', 'one', '{}')",
  ).run()
  assert.equal(shareIntegrationBacklog(db, origin, 20), true)
  assert.equal(shareIntegrationBacklog(db, origin, 30), false, 'nothing the second time')
  assert.deepEqual(
    queuedRecords(db, 10).map((entry) => entry.id),
    ['integration:m_00000000000000aa:1'],
  )
  assert.equal(readIntegrationEvents(db, 10)[0]?.machine, origin.machine)
})

test('a payload too large to share keeps the first items of its lists and their count', () => {
  const manifest = Array.from({ length: 5000 }, (_, i) => `src/generated/file-${i}.ts`)
  const detail = boundedDetail({ manifest, backupRefs: ['refs/sangam/backup/one'] })
  assert.ok(JSON.stringify(detail).length <= maxIntegrationPayloadChars)
  assert.equal((detail.manifest as string[]).length, 20)
  assert.equal(detail.manifestTotal, 5000)
  assert.deepEqual(detail.backupRefs, ['refs/sangam/backup/one'])
  assert.deepEqual(boundedDetail({ main: 'abc' }), { main: 'abc' }, 'a small payload as it is')
})
