import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { openConnection } from '../src/store/connection.ts'
import { installedElsewhere, runCli } from './helpers/run-cli.ts'
import { connectedDaemons, type Machine, type SyncWorld, syncWorld } from './helpers/sync-world.ts'
import { git } from './helpers/tmp-git-repo.ts'
import { eventually } from './helpers/up-process.ts'

/**
 * Issue 9's "done when" across machines, every part real: two machines (own SANGAM_HOME, clone
 * and lane worktree), one `sangam serve`, both `sangam up` daemons. Their lanes edit neighbouring
 * lines of one file, uncommitted: each daemon shares its worktree states (`room.worktree`), one
 * of them opens one conflict thread, and both see it, before anyone commits; when one lane moves
 * its edit away, the thread closes on both.
 */
after(killAllServes)

const original = Array.from({ length: 12 }, (_, i) => `export const v${i + 1} = ${i + 1}`)

function query<T>(machine: Machine, sql: string): T[] {
  const db = openConnection(machine.database, { readOnly: true, timeoutMs: 5000 })
  try {
    return db.prepare(sql).all() as T[]
  } finally {
    db.close()
  }
}

const readyThreads = (machine: Machine) =>
  query<{ id: string; status: string; title: string }>(
    machine,
    "SELECT id, status, title FROM room_thread WHERE source = 'ready' ORDER BY created_at",
  )

function edit(lane: string, change: (lines: string[]) => void): void {
  const lines = [...original]
  change(lines)
  writeFileSync(join(lane, 'src/shared.ts'), `${lines.join('\n')}\n`)
}

/** A commits the shared file and B pulls it; each machine then adds a lane worktree. */
function sharedFileInLanes(world: SyncWorld): { laneA: string; laneB: string } {
  const { a, b } = world
  const origin = join(world.root.path, 'origin.git')
  mkdirSync(join(a.repo, 'src'))
  edit(a.repo, () => {})
  git(a.repo, 'add', '-A')
  git(a.repo, 'commit', '-q', '-m', 'shared file')
  git(a.repo, 'push', '-q', origin, 'main')
  git(b.repo, 'pull', '-q', '--ff-only', origin, 'main')
  const laneA = join(a.home, 'lane-a')
  const laneB = join(b.home, 'lane-b')
  git(a.repo, 'worktree', 'add', '-q', '-b', 'lane-a', laneA)
  git(b.repo, 'worktree', 'add', '-q', '-b', 'lane-b', laneB)
  return { laneA, laneB }
}

test('two machines edit neighbouring lines uncommitted: one conflict thread on both before either commits; moving the edit closes it', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  const { laneA, laneB } = sharedFileInLanes(world)
  edit(laneA, (lines) => lines.splice(3, 1, 'export const v4 = 40'))
  edit(laneB, (lines) => lines.splice(4, 1, 'export const v5 = 50'))

  await using _daemons = await connectedDaemons(world)

  // Each replica holds the other machine's lane state, and one thread is on both.
  await eventually(
    () =>
      query<{ n: number }>(a, "SELECT count(*) AS n FROM worktree_state WHERE path LIKE '%lane-b'")[0]?.n ===
        1 &&
      query<{ n: number }>(b, "SELECT count(*) AS n FROM worktree_state WHERE path LIKE '%lane-a'")[0]?.n ===
        1,
    90_000,
    'the worktree states across',
  )
  await eventually(
    () => readyThreads(a).length === 1 && readyThreads(b).length === 1,
    90_000,
    'one conflict thread on both machines',
  )
  const [threadA] = readyThreads(a)
  assert.deepEqual(readyThreads(b), readyThreads(a))
  assert.equal(threadA?.title, 'Merge conflict: src/shared.ts')
  assert.equal(threadA?.status, 'open')
  // The thread may reach B (opened by the machine that sorts first) before B's own round has
  // drawn the picture; B's round starts as A's state arrives, so its row follows within a round.
  const overlapRows = () =>
    query<{ other_worktree: string; conflicted: number }>(
      b,
      "SELECT other_worktree, conflicted FROM overlap WHERE path = 'src/shared.ts'",
    )
  await eventually(() => overlapRows().length === 1, 30_000, "B's overlap row for A's lane")
  const overlapOnB = overlapRows()
  assert.match(overlapOnB[0]?.other_worktree ?? '', /^m_[^:]+:.*lane-a$/)
  assert.equal(overlapOnB[0]?.conflicted, 1)
  assert.equal(git(laneA, 'status', '--porcelain').includes('src/shared.ts'), true, 'nobody committed')

  // `targets` on A shows B's lane with what B's daemon shared.
  const targets = await a.cliJson<{
    worktrees: { path: string; branch: string | null; uncommitted: number | null; ageDays: number | null }[]
  }>(['targets'])
  const remote = targets.worktrees.find((worktree) => worktree.path === laneB)
  assert.equal(remote?.branch, 'lane-b')
  assert.equal(remote?.uncommitted, 1)
  assert.equal(typeof remote?.ageDays, 'number')

  // B moves its edit away from A's lines: the thread closes on both, and no second one opens.
  edit(laneB, (lines) => lines.splice(10, 1, 'export const v11 = 110'))
  await eventually(
    () => readyThreads(a)[0]?.status === 'closed' && readyThreads(b)[0]?.status === 'closed',
    90_000,
    'the thread closed on both',
  )
  assert.equal(readyThreads(a).length, 1)
  assert.equal(readyThreads(b).length, 1)
})

test("issue 20 item 18: sangam's own files on two machines make no conflict thread and are in no worktree state", async () => {
  await using world = await syncWorld()
  const { a, b } = world
  const { laneA, laneB } = sharedFileInLanes(world)

  // Every worktree gets the hooks, from sangam at another path on each machine: the files differ.
  const elsewhere = installedElsewhere(b.home)
  for (const [machine, cwd, entry] of [
    [a, a.repo, undefined],
    [a, laneA, undefined],
    [b, b.repo, elsewhere],
    [b, laneB, elsewhere],
  ] as const) {
    const installed = await runCli(['install-hooks'], { cwd, env: machine.env, entry })
    assert.equal(installed.code, 0, installed.stderr)
  }
  const settings = join('.claude', 'settings.json')
  assert.notEqual(readFileSync(join(a.repo, settings), 'utf8'), readFileSync(join(b.repo, settings), 'utf8'))
  // B's clone has no exclude, as when an older sangam installed its hooks: git shows the files there.
  writeFileSync(join(b.repo, '.git', 'info', 'exclude'), '')
  assert.match(git(b.repo, 'status', '--porcelain'), /^\?\? \.claude\/$/m)

  // A real collision: the thread for it shows that each daemon has drawn the other's states.
  edit(laneA, (lines) => lines.splice(3, 1, 'export const v4 = 40'))
  edit(laneB, (lines) => lines.splice(4, 1, 'export const v5 = 50'))
  await using _daemons = await connectedDaemons(world)
  const states = (machine: Machine) =>
    query<{ path: string; uncommitted: number; changes: string }>(
      machine,
      'SELECT path, uncommitted, changes FROM worktree_state ORDER BY path',
    )
  await eventually(
    () =>
      states(a).length === 4 &&
      states(b).length === 4 &&
      readyThreads(a).length > 0 &&
      readyThreads(b).length > 0,
    90_000,
    'both machines have all four worktree states and the conflict thread',
  )
  assert.deepEqual(
    readyThreads(a).map((thread) => thread.title),
    ['Merge conflict: src/shared.ts'],
    'one thread, for the real collision only',
  )
  assert.deepEqual(readyThreads(b), readyThreads(a))
  for (const machine of [a, b]) {
    const byPath = new Map(states(machine).map((state) => [state.path, state]))
    for (const main of [a.repo, b.repo]) assert.deepEqual(byPath.get(main)?.uncommitted, 0, main)
    for (const state of byPath.values())
      assert.deepEqual(
        (JSON.parse(state.changes) as { path: string }[]).map((change) => change.path),
        state.path.endsWith('lane-a') || state.path.endsWith('lane-b') ? ['src/shared.ts'] : [],
        state.path,
      )
  }
})
