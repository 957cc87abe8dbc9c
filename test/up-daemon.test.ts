import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { captureWorld, claudeHuman, codexHuman, codexMeta } from './helpers/capture-transcripts.ts'
import { runCli } from './helpers/run-cli.ts'
import { eventually, startUp } from './helpers/up-process.ts'

const daemonJson = (home: string, projectId: string): string =>
  join(home, '.sangam', 'projects', projectId, 'daemon.json')

test('up catches up, tails appends, and stops in order on SIGTERM, removing its discovery file', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const path = w.claude('live.jsonl', claudeHuman({ cwd, session: 'l1', text: 'before up' }))
  await using up = startUp([], { cwd, env: w.env })
  const ready = await up.waitFor('ready')
  assert.equal(ready.inserted, 1)
  assert.equal(existsSync(daemonJson(w.home.path, w.projectId)), true)

  w.append(path, claudeHuman({ cwd, session: 'l1', text: 'while up runs' }))
  await eventually(() => w.events().length === 2, 15_000, 'the appended line')

  assert.equal(await up.stop(), 0)
  assert.equal(up.statuses.at(-1)?.type, 'stopped')
  assert.equal(existsSync(daemonJson(w.home.path, w.projectId)), false)
  assert.deepEqual(
    w.events().map((event) => event.text),
    ['before up', 'while up runs'],
  )
})

for (const pauseMs of [300, 1600]) {
  test(`a final line written in two parts ${pauseMs} ms apart is captured once, whole`, async () => {
    await using w = await captureWorld()
    const cwd = w.repo.path
    const path = w.claude('torn.jsonl', claudeHuman({ cwd, session: 't1', text: 'first' }))
    await using up = startUp([], { cwd, env: w.env })
    await up.waitFor('ready')
    const torn = claudeHuman({ cwd, session: 't1', text: 'the torn line arrives in two writes' })
    w.append(path, torn.slice(0, 40))
    await sleep(pauseMs)
    w.append(path, torn.slice(40))
    await eventually(
      () => w.events().some((event) => event.text === 'the torn line arrives in two writes'),
      15_000,
      'the torn line',
    )
    await sleep(300)
    assert.deepEqual(
      w.events().map((event) => event.text),
      ['first', 'the torn line arrives in two writes'],
    )
    const row = w.sourceFiles()[0]
    assert.deepEqual([row?.lines, row?.captured, row?.unparseable], [2, 2, 0])
  })
}

test('a second up for the same project is refused with DAEMON_RUNNING, naming the pid', async () => {
  await using w = await captureWorld()
  await using up = startUp([], { cwd: w.repo.path, env: w.env })
  await up.waitFor('ready')
  const second = await runCli(['up', '--json'], { cwd: w.repo.path, env: w.env })
  assert.equal(second.code, 9)
  assert.equal(JSON.parse(second.stdout).error.code, 'DAEMON_RUNNING')
  assert.match(second.stderr, new RegExp(`pid ${up.child.pid}`))
})

test('a discovery file left by a dead daemon is replaced', async () => {
  await using w = await captureWorld()
  const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid
  writeFileSync(
    daemonJson(w.home.path, w.projectId),
    JSON.stringify({ pid: dead, version: '0.0.1', startedAt: '2026-01-01T00:00:00.000Z' }),
  )
  await using up = startUp([], { cwd: w.repo.path, env: w.env })
  const started = await up.waitFor('started')
  await up.waitFor('ready')
  assert.equal(started.pid, up.child.pid)
})

test('a transcript appearing in a directory created after up started is captured', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  await using up = startUp([], { cwd, env: w.env })
  await up.waitFor('ready')
  // Neither ~/.claude/projects nor the project's folder exist yet.
  assert.equal(existsSync(join(w.home.path, '.claude')), false)
  w.claude('new.jsonl', claudeHuman({ cwd, session: 'n1', text: 'born after up' }), '-brand-new')
  await eventually(() => w.events().length === 1, 15_000, 'the new transcript')
  w.append(
    join(w.home.path, '.claude', 'projects', '-brand-new', 'new.jsonl'),
    claudeHuman({ cwd, session: 'n1', text: 'and grows' }),
  )
  await eventually(() => w.events().length === 2, 15_000, 'the appended line')
})

test('a Codex rollout archived while up runs keeps its events, without capturing them twice', async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  const live = w.codex(
    'rollout-2026-11-29T10-00-00-arch.jsonl',
    codexMeta({ cwd, id: 'a1' }) + codexHuman('archived soon'),
  )
  await using up = startUp([], { cwd, env: w.env })
  await up.waitFor('ready')
  const archived = join(w.home.path, '.codex', 'archived_sessions', 'rollout-2026-11-29T10-00-00-arch.jsonl')
  mkdirSync(join(w.home.path, '.codex', 'archived_sessions'))
  renameSync(live, archived)
  await up.waitFor('moved')
  w.append(archived, codexHuman('after the move'))
  await eventually(() => w.events().length === 2, 15_000, 'the line appended after the move')
  assert.deepEqual(
    w.events().map((event) => [event.text, event.sourcePath]),
    [
      ['archived soon', archived],
      ['after the move', archived],
    ],
  )
})

test('up waits out a database held by another writer past the busy timeout, then catches up', async () => {
  await using w = await captureWorld()
  w.claude(
    'busy.jsonl',
    claudeHuman({ cwd: w.repo.path, session: 'b1', text: 'captured once the lock is free' }),
  )
  const other = openDatabaseFile(join(w.home.path, '.sangam', 'projects', w.projectId, 'sangam.db'))
  other.exec('BEGIN IMMEDIATE')
  try {
    await using up = startUp([], { cwd: w.repo.path, env: w.env })
    const busy = await up.waitFor('error')
    assert.match(String(busy.message), /locked by another writer/)
    other.exec('COMMIT')
    const ready = await up.waitFor('ready')
    assert.equal(ready.inserted, 1)
  } finally {
    if (other.inTransaction) other.exec('COMMIT')
    other.close()
  }
})

test("a daemon catching up a long backlog never leaves its other services waiting on the store's lock", async () => {
  await using w = await captureWorld()
  const cwd = w.repo.path
  // Three batches' worth (5,000 lines each): the catch-up yields to the event loop between them.
  const lines = Array.from({ length: 12_000 }, (_, index) =>
    claudeHuman({ cwd, session: 'backlog', text: `backlog turn ${index}` }),
  )
  w.claude('backlog.jsonl', lines.join(''))
  await using up = startUp([], { cwd, env: { ...w.env, SANGAM_LOG: 'debug' } })
  const ready = await up.waitFor('ready', 120_000)
  assert.equal(ready.inserted, 12_000)
  // Delivery's first look writes (its scan cursor) while the catch-up runs. A writer waiting for a
  // lock held by its own process blocks the thread, so had it waited, its failure (after the busy
  // timeout) would have been logged before the catch-up could go on to `ready`.
  assert.doesNotMatch(up.stderr(), /database is locked|STORE_BUSY|look failed/)
})
