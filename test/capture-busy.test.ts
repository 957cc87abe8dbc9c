import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { captureWorld, claudeHuman } from './helpers/capture-transcripts.ts'
import { runCli } from './helpers/run-cli.ts'

const database = (home: string, projectId: string): string =>
  join(home, '.sangam', 'projects', projectId, 'sangam.db')

test('index waits for another writer that holds the database, and succeeds once it lets go', async () => {
  await using w = await captureWorld()
  w.claude('busy.jsonl', claudeHuman({ cwd: w.repo.path, session: 'b1', text: 'waited for the lock' }))
  const other = openDatabaseFile(database(w.home.path, w.projectId))
  other.exec('BEGIN IMMEDIATE')
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      other.exec('COMMIT')
      other.close()
      resolve()
    }, 1500),
  )
  const startedAt = Date.now()
  const result = await runCli(['index', '--json'], { cwd: w.repo.path, env: w.env })
  await released
  const elapsed = Date.now() - startedAt
  assert.equal(result.code, 0, `exit ${result.code} after ${elapsed} ms: ${result.stderr}`)
  assert.ok(elapsed >= 1400, `index returned after ${elapsed} ms, before the lock was released`)
  assert.deepEqual(
    w.events().map((event) => event.text),
    ['waited for the lock'],
  )
})

test('index fails with STORE_BUSY (exit 8) when the lock is held past the busy timeout, losing nothing', async () => {
  await using w = await captureWorld()
  w.claude('busy.jsonl', claudeHuman({ cwd: w.repo.path, session: 'b2', text: 'still here afterwards' }))
  const other = openDatabaseFile(database(w.home.path, w.projectId))
  other.exec('BEGIN IMMEDIATE')
  let result: Awaited<ReturnType<typeof runCli>>
  try {
    result = await runCli(['index', '--json'], { cwd: w.repo.path, env: w.env })
  } finally {
    other.exec('COMMIT')
    other.close()
  }
  assert.equal(result.code, 8)
  assert.equal(JSON.parse(result.stdout).error.code, 'STORE_BUSY')
  assert.match(result.stderr, /locked by another writer/)
  assert.deepEqual(w.events(), [])

  const again = await runCli(['index', '--json'], { cwd: w.repo.path, env: w.env })
  assert.equal(again.code, 0, again.stderr)
  assert.deepEqual(
    w.events().map((event) => event.text),
    ['still here afterwards'],
  )
})
