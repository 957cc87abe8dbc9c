import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openConnection } from '../src/store/connection.ts'
import { readStore } from './helpers/read-store.ts'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpGitRepo } from './helpers/tmp-git-repo.ts'

/**
 * Without `sangam up`, the read commands find a collision themselves (D350): `board`, `threads`
 * and `alerts`, as the compiled CLI runs them, over a real repository with two worktrees that
 * edit the same line and no daemon ever started.
 */

const base = 'export const a = 1\nexport const b = 2\n'

interface Collisions {
  readonly source: string
  readonly lookedAt: number | null
  readonly lookedBy: string | null
  readonly note: string | null
}
interface Card {
  readonly threadId: string
  readonly title: string
}

function world() {
  const repo = tmpGitRepo({ commit: true })
  const home = repo.path.replace(/\/repo$/, '')
  const env = isolatedEnv(home, { SANGAM_USER: 'asha@example.com' })
  repo.write('src/shared.ts', base)
  repo.commit('base')
  const worktree = (name: string, content: string) => {
    const path = join(home, name)
    git(repo.path, 'worktree', 'add', '-q', '-b', name, path)
    writeFileSync(join(path, 'src/shared.ts'), content)
    return path
  }
  const json = <T>(args: readonly string[]) => runCliJson<T>(args, { cwd: repo.path, env })
  return { repo, home, env, worktree, json }
}

test('no daemon: board, threads and alerts run at once find the collision and open one thread; a later read closes it', async () => {
  const w = world()
  await using _ = w.repo
  const one = w.worktree('one', 'export const a = 10\nexport const b = 2\n')
  const two = w.worktree('two', 'export const a = 20\nexport const b = 2\n')
  const { database } = await w.json<{ database: string }>(['init', '--no-mcp'])
  const query = <T>(sql: string): T[] => readStore(database, (db) => db.prepare(sql).all() as T[])
  const readyThreads = () =>
    query<{ id: string; status: string }>("SELECT id, status FROM room_thread WHERE source = 'ready'")

  // The three reads a person runs, at once: each may look, and still one thread opens.
  const [board, threads, alerts] = await Promise.all([
    w.json<{ columns: Record<string, Card[]>; collisions: Collisions }>(['board']),
    w.json<{ threads: { id: string; title: string; participants: string[] }[]; collisions: Collisions }>([
      'threads',
    ]),
    w.json<{ alerts: { type: string; paths: string[]; participants: string[] }[]; collisions: Collisions }>([
      'alerts',
    ]),
  ])
  assert.equal(readyThreads().length, 1, 'one thread however many reads looked')
  const [thread] = readyThreads()
  const cards = Object.values(board.columns).flat()
  assert.deepEqual(
    cards.map((card) => [card.threadId, card.title]),
    [[thread?.id, 'Merge conflict: src/shared.ts']],
  )
  assert.deepEqual(
    threads.threads.map((each) => [each.id, each.title, each.participants]),
    [[thread?.id, 'Merge conflict: src/shared.ts', ['#one', '#two']]],
  )
  const overlap = alerts.alerts.filter((alert) => alert.type === 'file-overlap')
  assert.deepEqual(
    overlap.map((alert) => [alert.participants, alert.paths]),
    [[['#one', '#two'], ['src/shared.ts']]],
  )
  for (const seen of [board.collisions, threads.collisions, alerts.collisions]) {
    assert.ok(['looked', 'recent'].includes(seen.source), seen.source)
    assert.equal(seen.lookedBy, 'read')
    assert.equal(seen.note, null)
  }
  // What the edit hook's file-overlap rule reads is written too.
  assert.deepEqual(
    query<{ worktree: string; other_worktree: string; conflicted: number }>(
      'SELECT worktree, other_worktree, conflicted FROM overlap ORDER BY worktree',
    ),
    [
      { worktree: one, other_worktree: two, conflicted: 1 },
      { worktree: two, other_worktree: one, conflicted: 1 },
    ],
  )
  assert.equal(query("SELECT id FROM room_message WHERE sender = 'ready'").length, 1)
  // The text says nothing more: the collision it shows is current.
  const text = await runCli(['threads'], { cwd: w.repo.path, env: w.env })
  assert.match(text.stdout, /Merge conflict: src\/shared\.ts/)
  assert.doesNotMatch(text.stdout, /Collisions:/)

  // two gives up its edit; once the last look is older than a round's interval, a read looks again.
  writeFileSync(join(two, 'src/shared.ts'), base)
  const db = openConnection(database, { timeoutMs: 5000 })
  db.prepare('UPDATE overlap_look SET looked_at = looked_at - 60000').run()
  db.close()
  const after = await w.json<{ threads: unknown[]; collisions: Collisions }>(['threads'])
  assert.equal(after.collisions.source, 'looked')
  assert.deepEqual(after.threads, [])
  assert.deepEqual(readyThreads(), [{ id: thread?.id, status: 'closed' }])
})

test('no daemon and more worktrees than a read looks at: the reads say so, and when anyone last looked', async () => {
  const w = world()
  await using _ = w.repo
  for (let i = 0; i < 12; i += 1) w.worktree(`lane-${i}`, `export const a = ${i}\nexport const b = 2\n`)
  await w.json(['init', '--no-mcp'])
  const board = await runCli(['board'], { cwd: w.repo.path, env: w.env })
  assert.equal(board.code, 0, board.stderr)
  assert.match(
    board.stdout,
    /Collisions: no daemon runs and this read did not look for collisions: 13 worktrees are more than a read looks at \(12\); nobody has looked yet; sangam up looks every 15 s, sangam ready looks now/,
  )
  const threads = await w.json<{ threads: unknown[]; collisions: Collisions }>(['threads'])
  assert.deepEqual(threads.threads, [])
  assert.deepEqual(
    [threads.collisions.source, threads.collisions.lookedAt, threads.collisions.lookedBy],
    ['not-looked', null, null],
  )
  const alerts = await runCli(['alerts'], { cwd: w.repo.path, env: w.env })
  assert.doesNotMatch(alerts.stdout, /file-overlap/)
  assert.match(alerts.stdout, /\nCollisions: no daemon runs and this read did not look/)
})
