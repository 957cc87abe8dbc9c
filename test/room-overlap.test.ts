import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { readStore } from './helpers/read-store.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { git, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { eventually, startUp } from './helpers/up-process.ts'

/**
 * The daemon's overlap picture end to end: `sangam up` (the compiled CLI) over a real repository
 * with real worktrees, read back from its database. Each start of `up` runs a round at once, so
 * restarting it is how the test asks for the next round.
 */

const base = 'export const a = 1\nexport const b = 2\n'

test('sangam up: uncommitted edits of the same line are a conflicted overlap and one thread; a restart adds none; fixing it closes it', async () => {
  await using repo = tmpGitRepo({ commit: true })
  const home = repo.path.replace(/\/repo$/, '')
  const env = isolatedEnv(home, { SANGAM_USER: 'asha@example.com' })
  repo.write('src/shared.ts', base)
  repo.commit('base')
  const one = join(home, 'one')
  const two = join(home, 'two')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'one', one)
  git(repo.path, 'worktree', 'add', '-q', '-b', 'two', two)
  writeFileSync(join(one, 'src/shared.ts'), 'export const a = 10\nexport const b = 2\n')
  writeFileSync(join(two, 'src/shared.ts'), 'export const a = 20\nexport const b = 2\n')
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })

  const query = <T>(sql: string): T[] => readStore(database, (db) => db.prepare(sql).all() as T[])
  const pictureTime = () =>
    query<{ t: number | null }>('SELECT max(computed_at) AS t FROM overlap')[0]?.t ?? 0
  const readyThreads = () =>
    query<{ id: string; title: string; status: string }>(
      "SELECT id, title, status FROM room_thread WHERE source = 'ready' ORDER BY created_at",
    )
  /** One daemon start: its first round, then a clean stop. */
  const round = async (until: (started: number) => boolean, what: string) => {
    const started = Date.now()
    await using up = startUp([], { cwd: repo.path, env })
    await up.waitFor('started')
    await eventually(() => until(started), 30_000, what)
    // A round that changes what conflicts says so (a restarted daemon's first round always does).
    const status = await up.waitFor('overlap')
    // While it runs, a read leaves the looking to it (D350).
    const read = await runCliJson<{ collisions: { source: string; lookedBy: string } }>(['threads'], {
      cwd: repo.path,
      env,
    })
    assert.deepEqual([read.collisions.source, read.collisions.lookedBy], ['daemon', 'daemon'])
    assert.equal(await up.stop(), 0)
    return status
  }

  const first = await round(
    (started) => pictureTime() >= started && readyThreads().length === 1,
    'the picture and a thread',
  )
  assert.deepEqual(
    query('SELECT worktree, path, other_worktree, other_branch, conflicted FROM overlap ORDER BY worktree'),
    [
      { worktree: one, path: 'src/shared.ts', other_worktree: two, other_branch: 'two', conflicted: 1 },
      { worktree: two, path: 'src/shared.ts', other_worktree: one, other_branch: 'one', conflicted: 1 },
    ],
  )
  const [thread] = readyThreads()
  assert.deepEqual([thread?.title, thread?.status], ['Merge conflict: src/shared.ts', 'open'])
  assert.deepEqual(first, {
    type: 'overlap',
    target: 'main',
    lanes: 3,
    rows: 2,
    conflicted: 2,
    opened: [thread?.id],
    closed: [],
  })

  await round((started) => pictureTime() >= started, 'a second picture after a restart')
  assert.deepEqual(readyThreads(), [thread])
  assert.equal(query("SELECT id FROM room_message WHERE sender = 'ready'").length, 1)

  writeFileSync(join(two, 'src/shared.ts'), base) // two gives up its edit
  await round(() => readyThreads()[0]?.status === 'closed', 'the thread closed')
  assert.deepEqual(query('SELECT * FROM overlap'), [])
  assert.equal(readyThreads().length, 1)
})
