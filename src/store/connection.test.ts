import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { tmpStore } from '../../test/helpers/tmp-store.ts'
import { openDatabaseFile } from '../project/store/project-database.ts'
import { ErrorCode, isSangamError } from '../shared/sangam-error.ts'
import { asStoreBusy } from './busy-error.ts'
import { openConnection } from './connection.ts'
import { translateSqliteError } from './database.ts'
import { sqliteErrorCode } from './sqlite-error-code.ts'

function memory() {
  const db = openConnection(':memory:', { timeoutMs: 0 })
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER, blob BLOB)')
  return db
}

test('parameters bind as the store writes them, the same on every Node line', () => {
  const db = memory()
  const insert = db.prepare('INSERT INTO t (name, n) VALUES (@name, :n)')
  // undefined is NULL; keys the statement does not name are ignored; a boolean is 1 or 0.
  insert.run({ name: undefined, n: 1, unused: 'x' })
  insert.run({ name: 'b', n: true })
  // Positional values, an array of them, and a named object after positional ones.
  db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('c', undefined)
  db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run(['d', false])
  db.prepare('INSERT INTO t (name, n) VALUES (?, @n)').run('e', { n: 5 })
  db.prepare('INSERT INTO t (name, blob) VALUES (?, ?)').run('f', Buffer.from([1, 2]))
  const rows = db.prepare('SELECT id, name, n FROM t ORDER BY id').all()
  assert.deepEqual(rows, [
    { id: 1, name: null, n: 1 },
    { id: 2, name: 'b', n: 1 },
    { id: 3, name: 'c', n: null },
    { id: 4, name: 'd', n: 0 },
    { id: 5, name: 'e', n: 5 },
    { id: 6, name: 'f', n: null },
  ])
  assert.deepEqual([...(db.prepare('SELECT blob FROM t WHERE id = 6').pluck().get() as Uint8Array)], [1, 2])
  assert.throws(
    () => db.prepare('SELECT ?').get({ a: 1 }, { b: 2 }),
    /at most one object of named parameters/,
  )
})

test('rows are plain objects; pluck gives the first column; run reports changes and the rowid', () => {
  const db = memory()
  const result = db.prepare('INSERT INTO t (name) VALUES (?)').run('a')
  assert.deepEqual(result, { changes: 1, lastInsertRowid: 1 })
  const row = db.prepare('SELECT name, name AS again FROM t').get() as object
  assert.equal(Object.getPrototypeOf(row), Object.prototype)
  assert.deepEqual(row, { name: 'a', again: 'a' })
  const names = db.prepare('SELECT name FROM t').pluck()
  assert.deepEqual(names.all(), ['a'])
  assert.equal(names.pluck(false).get() instanceof Object, true)
  assert.deepEqual([...db.prepare('SELECT id FROM t').iterate()], [{ id: 1 }])
  assert.equal(db.prepare('SELECT id FROM t WHERE id = 9').get(), undefined)
})

test('a statement kept across a schema change reads the new columns', () => {
  const db = memory()
  db.prepare('INSERT INTO t (name) VALUES (?)').run('a')
  const all = db.prepare('SELECT * FROM t')
  assert.deepEqual(Object.keys(all.get() as object), ['id', 'name', 'n', 'blob'])
  db.exec('ALTER TABLE t ADD COLUMN added TEXT')
  assert.deepEqual(Object.keys(all.get() as object), ['id', 'name', 'n', 'blob', 'added'])
})

test('a transaction commits, rolls back what threw, and nests as a savepoint', () => {
  const db = memory()
  const insert = db.prepare('INSERT INTO t (name) VALUES (?)')
  const count = () => db.prepare('SELECT count(*) FROM t').pluck().get()
  assert.equal(db.transaction((name: string) => insert.run(name).changes)('a'), 1)
  assert.throws(
    () =>
      db.transaction(() => {
        insert.run('b')
        throw new Error('no')
      })(),
    /no/,
  )
  assert.equal(count(), 1)
  db.transaction(() => {
    insert.run('c')
    assert.equal(db.inTransaction, true)
    assert.throws(() =>
      db
        .transaction(() => {
          insert.run('d')
          throw new Error('inner')
        })
        .immediate(),
    )
  })()
  assert.equal(db.inTransaction, false)
  assert.deepEqual(db.prepare('SELECT name FROM t ORDER BY id').pluck().all(), ['a', 'c'])
  assert.throws(() => db.transaction(async () => undefined)(), /cannot return a promise/)
  assert.equal(db.inTransaction, false)
  assert.equal(count(), 2)
})

test('IMMEDIATE takes the write lock at once: a second writer is STORE_BUSY after its timeout', async () => {
  await using dir = tmpDir()
  const file = join(dir.path, 'sangam.db')
  const first = openDatabaseFile(file)
  const second = openDatabaseFile(file, { busyTimeoutMs: 50 })
  try {
    assert.equal(first.pragma('journal_mode', { simple: true }), 'wal')
    first
      .transaction(() => {
        let caught: unknown
        try {
          second.transaction(() => undefined).immediate()
        } catch (error) {
          caught = error
        }
        assert.equal(sqliteErrorCode(caught), 'SQLITE_BUSY')
        const busy = asStoreBusy(caught)
        assert.ok(isSangamError(busy) && busy.code === ErrorCode.StoreBusy, String(busy))
        // WAL: the reader is not blocked by the writer.
        assert.equal(
          (second.prepare('SELECT count(*) FROM schema_migration').pluck().get() as number) > 0,
          true,
        )
      })
      .immediate()
  } finally {
    first.close()
    second.close()
    second.close()
  }
})

test("a writer's plain transaction holds the write lock from its start; a deferred one that reads first cannot write after another did", async () => {
  await using store = tmpStore()
  const mine = store.open()
  const other = store.open()
  mine.exec('CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER)')
  mine.prepare("INSERT INTO kv VALUES ('a', 1)").run()
  // Another process's write (a hook's presence) between our read and our write; one thread
  // here, so it may not wait for us.
  other.pragma('busy_timeout = 0')
  const readThenWrite = (): { readonly otherWrote: boolean; readonly changes: number } => {
    const v = mine.prepare("SELECT v FROM kv WHERE k = 'a'").pluck().get() as number
    let otherWrote = true
    try {
      other.prepare("INSERT OR REPLACE INTO kv VALUES ('b', ?)").run(v)
    } catch (error) {
      assert.equal(sqliteErrorCode(error), 'SQLITE_BUSY')
      otherWrote = false
    }
    return { otherWrote, changes: mine.prepare("UPDATE kv SET v = ? WHERE k = 'a'").run(v + 1).changes }
  }
  assert.deepEqual(mine.transaction(readThenWrite)(), { otherWrote: false, changes: 1 })
  assert.equal(mine.prepare("SELECT v FROM kv WHERE k = 'a'").pluck().get(), 2)
  // Deferred, the other write lands, and ours fails at once whatever our busy timeout: our
  // snapshot is stale. This is how `option-set` failed beside a Claude Code Stop hook.
  let caught: unknown
  try {
    mine.transaction(readThenWrite).deferred()
  } catch (error) {
    caught = error
  }
  assert.equal(sqliteErrorCode(caught), 'SQLITE_BUSY', String(caught))
  assert.equal(mine.inTransaction, false)
  assert.equal(mine.prepare("SELECT v FROM kv WHERE k = 'a'").pluck().get(), 2)
  assert.equal(mine.prepare("SELECT v FROM kv WHERE k = 'b'").pluck().get(), 2)
})

test('every connection, read-only ones too, caches 16 MB of pages, as the store did on better-sqlite3', async () => {
  // node:sqlite keeps SQLite's 2 MB, under which a search costs up to 1.5 times the CPU (D390).
  await using dir = tmpDir()
  const file = join(dir.path, 'cache.db')
  const writable = openDatabaseFile(file)
  const readonly = openDatabaseFile(file, { readonly: true })
  const bare = openConnection(':memory:', { timeoutMs: 0 })
  try {
    for (const db of [writable, readonly, bare])
      assert.equal(db.pragma('cache_size', { simple: true }), -16_000)
  } finally {
    for (const db of [writable, readonly, bare]) db.close()
  }
})

test("SQLite's failures to open become the store's errors", async () => {
  await using dir = tmpDir()
  const missing = translateSqliteError(
    catchError(() => openDatabaseFile(join(dir.path, 'none.db'), { readonly: true })),
    'none.db',
  )
  assert.ok(isSangamError(missing) && missing.code === ErrorCode.DataDirUnusable, String(missing))
  assert.equal(sqliteErrorCode(new Error('plain')), null)
})

function catchError(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('it did not throw')
}
