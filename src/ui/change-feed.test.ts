import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../project/store/project-database.ts'
import { createLogger } from '../shared/logger.ts'
import { ChangeMarkReader } from '../store/change-marks.ts'
import { type Change, ChangeFeed, keptChanges } from './change-feed.ts'

const silent = createLogger({ write: () => true }, 'silent')

/** A real database file, a writer connection (the "other process") and the feed on its own. */
function world() {
  const dir = tmpDir('sangam-feed-')
  const file = join(dir.path, 'sangam.db')
  const writer = openDatabaseFile(file)
  const watcher = openDatabaseFile(file, { readonly: true })
  const feed = new ChangeFeed(new ChangeMarkReader(watcher), silent)
  let n = 0
  const message = (): void => {
    n += 1
    writer
      .prepare(
        `INSERT INTO room_message (id, kind, text, sender, human, recipients, at)
         VALUES (?, 'message', 'hello', 'asha', 'asha', '[]', ?)`,
      )
      .run(`msg-${n}`, n)
  }
  const lease = (): void => {
    n += 1
    writer
      .prepare(
        `INSERT INTO lease_log (at, action, pattern, token, holder_human, holder_vendor, holder_session,
                                by_human, by_vendor, by_session, reason)
         VALUES (?, 'granted', 'src/a.ts', ?, 'asha', '', '', 'asha', '', '', 'r')`,
      )
      .run(n, n)
  }
  return {
    feed,
    writer,
    message,
    lease,
    [Symbol.asyncDispose]: async () => {
      feed.stop()
      watcher.close()
      writer.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}

test('a commit from another connection is one change naming its topics; a quiet tick is none', async () => {
  await using w = world()
  assert.equal(w.feed.tick(), null)
  w.message()
  assert.deepEqual(w.feed.tick(), { cursor: 1, topics: ['messages', 'board'] })
  assert.equal(w.feed.tick(), null)
  w.lease()
  w.message()
  assert.deepEqual(w.feed.tick(), { cursor: 2, topics: ['messages', 'board', 'leases'] })
})

test('a lane, the integration lock changing hands and the integration log are lanes; a heartbeat is none', async () => {
  await using w = world()
  w.writer
    .prepare(
      `INSERT INTO lane (name, branch, worktree, owner, state, created_at, updated_at)
       VALUES ('mira', 'lane/mira', '/w/mira', 'mira@x.dev', 'idle', 1, 1)`,
    )
    .run()
  assert.deepEqual(w.feed.tick()?.topics, ['lanes'])
  w.writer
    .prepare(
      `UPDATE integration_lock SET lane = 'mira', owner = 'mira@x.dev', since = 2, heartbeat_at = 2, token = token + 1`,
    )
    .run()
  assert.deepEqual(w.feed.tick()?.topics, ['lanes'])
  w.writer.prepare('UPDATE integration_lock SET heartbeat_at = 3').run()
  assert.equal(w.feed.tick(), null, 'a heartbeat changes nothing a page shows')
  w.writer
    .prepare(`UPDATE integration_lock SET lane = NULL, owner = NULL, since = NULL, heartbeat_at = NULL`)
    .run()
  assert.deepEqual(w.feed.tick()?.topics, ['lanes'])
  w.writer
    .prepare(
      `INSERT INTO integration_event (at, type, lane, payload) VALUES (4, 'sync.published-direct', 'mira', '{}')`,
    )
    .run()
  assert.deepEqual(w.feed.tick()?.topics, ['lanes'])
})

test('a commit that touches nothing a page shows is no change', async () => {
  await using w = world()
  w.writer.prepare(`INSERT INTO setting (key, value) VALUES ('x', '{}')`).run()
  assert.equal(w.feed.tick(), null)
  assert.equal(w.feed.cursor, 0)
})

test('a subscriber gets what came after its cursor, then the live changes: none lost, none twice', async () => {
  await using w = world()
  for (let i = 0; i < 5; i++) {
    w.message()
    w.feed.tick()
  }
  const seen: Change[] = []
  const { catchup, unsubscribe } = w.feed.subscribe(2, (change) => seen.push(change))
  assert.deepEqual(catchup.kind === 'replay' && catchup.changes.map((change) => change.cursor), [3, 4, 5])
  w.lease()
  w.feed.tick()
  assert.deepEqual(
    seen.map((change) => change.cursor),
    [6],
  )
  unsubscribe()
  w.message()
  w.feed.tick()
  assert.equal(seen.length, 1, 'no change after unsubscribing')
})

test('a first connection hears where the run stands; a cursor that is not of this run, or too old, resets', async () => {
  await using w = world()
  assert.deepEqual(w.feed.subscribe(null, () => {}).catchup, { kind: 'hello', cursor: 0 })
  assert.deepEqual(w.feed.subscribe(7, () => {}).catchup, { kind: 'reset', cursor: 0 })
  for (let i = 0; i < keptChanges + 3; i++) {
    w.message()
    w.feed.tick()
  }
  const cursor = keptChanges + 3
  assert.deepEqual(w.feed.subscribe(1, () => {}).catchup, { kind: 'reset', cursor })
  // The oldest kept change is 4: a page that saw 3 still gets everything after it.
  const from3 = w.feed.subscribe(3, () => {}).catchup
  assert.equal(from3.kind === 'replay' && from3.changes.length, keptChanges)
  assert.deepEqual(w.feed.subscribe(cursor, () => {}).catchup, { kind: 'replay', changes: [] })
})
