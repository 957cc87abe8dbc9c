import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { type CliResult, runCli } from './helpers/run-cli.ts'
import { type Machine, type SyncWorld, sharedRemote, syncWorld } from './helpers/sync-world.ts'
import { git } from './helpers/tmp-git-repo.ts'

/**
 * Two machines (two clones of one bare remote, two SANGAM_HOMEs) attached to one `sangam serve`,
 * racing `sangam sync` from a lane each: the server's lock lets one integrate at a time, and the
 * remote's main moves only by compare-and-swap, so exactly one publishes first; the other is told
 * integration-busy, or merges cleanly on top of it.
 */
after(killAllServes)

async function team(): Promise<{ world: SyncWorld; origin: string }> {
  const world = await syncWorld()
  const origin = join(world.root.path, 'origin.git')
  // The project is identified by the shared URL; git fetches and pushes the bare repository.
  for (const machine of [world.a, world.b])
    git(machine.repo, 'config', `url.${origin}.insteadOf`, sharedRemote)
  await world.a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const line = (await runCli(['connection'], { cwd: world.a.repo, env: world.a.env })).stdout
  const joined = await world.b.cli(['join'], line)
  assert.equal(joined.code, 0, joined.stderr)
  return { world, origin }
}

async function lane(machine: Machine, name: string): Promise<string> {
  const entered = await machine.cliJson<{ lane: { worktree: string } }>(['lane', name, '--no-agent'])
  return entered.lane.worktree
}

function sync(machine: Machine, worktree: string): Promise<CliResult> {
  return runCli(['sync', '--json'], { cwd: worktree, env: machine.env })
}

interface SyncJson {
  outcome?: string
  main?: string
  error?: { code: string; message: string; next: string }
}

test('two machines racing sync through one server: exactly one publishes first, the other is busy or merges after it', async () => {
  const { world, origin } = await team()
  await using _ = world
  const alpha = await lane(world.a, 'alpha')
  const beta = await lane(world.b, 'beta')
  writeFileSync(join(alpha, 'alpha.txt'), 'from alice\n')
  writeFileSync(join(beta, 'beta.txt'), 'from bob\n')
  const before = git(origin, 'rev-parse', 'refs/heads/main')

  const [fromA, fromB] = await Promise.all([sync(world.a, alpha), sync(world.b, beta)])
  const answers = [fromA, fromB].map((result) => ({
    code: result.code,
    json: JSON.parse(result.stdout) as SyncJson,
  }))
  const first = answers.filter((answer) => answer.json.outcome === 'published-direct')
  assert.equal(first.length, 1, JSON.stringify(answers))
  const other = answers.find((answer) => answer !== first[0])
  assert.ok(other)
  if (other.code !== 0) {
    assert.equal(other.json.error?.code, 'integration-busy', JSON.stringify(other.json))
    assert.match(other.json.error?.next ?? '', /run sangam sync again/)
  } else {
    assert.equal(other.json.outcome, 'published-merge', JSON.stringify(other.json))
  }
  // Whoever was refused syncs again, and merges on top of the first.
  const loser = first[0] === answers[0] ? { machine: world.b, lane: beta } : { machine: world.a, lane: alpha }
  if (other.code !== 0) {
    const again = await sync(loser.machine, loser.lane)
    assert.equal(again.code, 0, again.stdout + again.stderr)
    assert.equal((JSON.parse(again.stdout) as SyncJson).outcome, 'published-merge')
  }

  const main = git(origin, 'rev-parse', 'refs/heads/main')
  assert.notEqual(main, before)
  assert.equal(git(origin, 'show', `${main}:alpha.txt`), 'from alice')
  assert.equal(git(origin, 'show', `${main}:beta.txt`), 'from bob')
  // First-parent history of the remote's main: every move was a fast-forward of the one before.
  assert.equal(git(origin, 'merge-base', '--is-ancestor', before, main), '')
  assert.equal(git(loser.machine.repo, 'rev-parse', 'refs/heads/main'), main)
  // Each lane's branch went to the remote too (best effort, after each sync).
  assert.ok(
    git(origin, 'for-each-ref', '--format=%(refname)', 'refs/heads/lane/').includes('refs/heads/lane/'),
  )

  for (const machine of [world.a, world.b]) {
    const status = await machine.cliJson<{ lock: unknown }>(['status'])
    assert.equal(status.lock, null)
  }
})

test("a semantic task on one machine holds the team's lock: the other machine is told busy, naming the lane and its machine", async () => {
  const { world } = await team()
  await using _ = world
  const alpha = await lane(world.a, 'alpha')
  const beta = await lane(world.b, 'beta')
  const outcome = async (machine: Machine, worktree: string, code = 0): Promise<SyncJson> => {
    const result = await sync(machine, worktree)
    assert.equal(result.code, code, result.stdout + result.stderr)
    return JSON.parse(result.stdout) as SyncJson
  }
  writeFileSync(join(alpha, 'shared.txt'), 'base\n')
  assert.equal((await outcome(world.a, alpha)).outcome, 'published-direct')
  assert.equal((await outcome(world.b, beta)).outcome, 'caught-up')
  writeFileSync(join(alpha, 'shared.txt'), 'alice\n')
  assert.equal((await outcome(world.a, alpha)).outcome, 'published-direct')
  // Bob changed the same line: git cannot merge it, so his lane gets the task, and the lock.
  writeFileSync(join(beta, 'shared.txt'), 'bob\n')
  assert.equal((await outcome(world.b, beta)).outcome, 'task-started')

  writeFileSync(join(alpha, 'other.txt'), 'more\n')
  const busy = await outcome(world.a, alpha, 12)
  assert.equal(busy.error?.code, 'integration-busy')
  assert.match(busy.error?.message ?? '', /lane beta@m_[0-9a-f]{16} \(beta@x\.dev|lane beta@m_[0-9a-f]{16}/)
  const status = await world.a.cliJson<{ lock: { lane: string; task: string | null } | null }>(['status'])
  assert.match(status.lock?.lane ?? '', /^beta@m_/)
  assert.ok(status.lock?.task)
  // The board reads the team's lock as status does; the brief, which asks no server, says where it is (D216).
  const board = await world.a.cliJson<{
    lock: { lane: string; stale: boolean } | null
    lanes: { name: string }[]
  }>(['board'])
  assert.match(board.lock?.lane ?? '', /^beta@m_/)
  assert.equal(board.lock?.stale, false)
  assert.deepEqual(
    board.lanes.map((entry) => entry.name),
    ['alpha'],
  )
  const brief = await runCli(['brief'], { cwd: alpha, env: world.a.env })
  assert.match(
    brief.stdout,
    new RegExp(
      `- Integration lock: lane beta \\(bob@x\\.dev\\) on machine m_[0-9a-f]{16}, task ${status.lock?.task}; the team server said so \\d+ min ago\\.`,
    ),
  )
  assert.match(
    brief.stdout,
    /You work in lane alpha [^\n]*Next: wait for lane beta@m_[0-9a-f]{16} to publish/,
  )
  const takeover = await runCli(['sync', '--takeover', '--reason', 'is bob there?', '--json'], {
    cwd: alpha,
    env: world.a.env,
  })
  assert.equal(takeover.code, 12)
  assert.equal((JSON.parse(takeover.stdout) as SyncJson).error?.code, 'lock-not-stale')
})

test('three lanes on two machines integrate into one main through sync alone: direct, merge, a semantic task', async () => {
  const { world, origin } = await team()
  await using _ = world
  const alpha = await lane(world.a, 'alpha')
  const gamma = await lane(world.a, 'gamma')
  const beta = await lane(world.b, 'beta')
  const outcome = async (machine: Machine, worktree: string): Promise<SyncJson> => {
    const result = await sync(machine, worktree)
    assert.equal(result.code, 0, result.stdout + result.stderr)
    return JSON.parse(result.stdout) as SyncJson
  }
  const remoteMain = (): string => git(origin, 'rev-parse', 'refs/heads/main')

  // alpha publishes on a current main, gamma merges on top; beta, on the other machine, wrote
  // alpha's file differently: git cannot merge it, so beta's agent (here: its human) gets a task.
  writeFileSync(join(alpha, 'shared.txt'), 'alpha\n')
  writeFileSync(join(gamma, 'gamma.txt'), 'gamma\n')
  writeFileSync(join(beta, 'beta.txt'), 'beta\n')
  writeFileSync(join(beta, 'shared.txt'), 'beta\n')
  assert.equal((await outcome(world.a, alpha)).outcome, 'published-direct')
  assert.equal((await outcome(world.a, gamma)).outcome, 'published-merge')
  const started = await outcome(world.b, beta)
  assert.equal(started.outcome, 'task-started', JSON.stringify(started))
  const task = (started as { task: { id: string; file: string; validationFile: string } | null }).task
  assert.ok(task)
  const beforeTask = remoteMain()
  writeFileSync(join(gamma, 'gamma.txt'), 'gamma, again\n')
  const busy = await sync(world.a, gamma)
  assert.equal(busy.code, 12, 'the team lock is held through the task on the other machine')
  assert.equal(remoteMain(), beforeTask, 'a refusal never moves main')

  // The lane was reset to main; the task's work is the union: the snapshot's other file, both lines.
  git(beta, 'checkout', `refs/sangam/snapshots/${task.id}`, '--', 'beta.txt')
  writeFileSync(join(beta, 'shared.txt'), 'alpha and beta\n')
  git(beta, 'add', '-A')
  git(beta, 'commit', '-q', '-m', 'shared: both lines')
  writeFileSync(task.validationFile, 'Kept both lines.\n## Commands\n- `grep -c alpha shared.txt` → passed\n')
  assert.equal((await outcome(world.b, beta)).outcome, 'published-task')
  assert.equal((await outcome(world.a, gamma)).outcome, 'published-merge')
  assert.equal((await outcome(world.a, alpha)).outcome, 'caught-up')
  assert.equal((await outcome(world.b, beta)).outcome, 'caught-up', 'B fetches what A published after it')

  const main = remoteMain()
  assert.deepEqual(
    ['shared.txt', 'beta.txt', 'gamma.txt'].map((path) => git(origin, 'show', `${main}:${path}`)),
    ['alpha and beta', 'beta', 'gamma, again'],
    "main holds every lane's work",
  )
  assert.equal(git(origin, 'merge-base', '--is-ancestor', beforeTask, main), '')
  for (const machine of [world.a, world.b]) {
    assert.equal(git(machine.repo, 'rev-parse', 'refs/heads/main'), main, 'each machine caught up')
    assert.equal((await machine.cliJson<{ lock: unknown }>(['status'])).lock, null)
  }
  for (const worktree of [alpha, beta, gamma]) assert.equal(git(worktree, 'rev-parse', 'HEAD'), main)
})

test("the team's main moved outside sangam (a push around the guard) is refused on every machine until a person accepts it", async () => {
  const { world, origin } = await team()
  await using _ = world
  const alpha = await lane(world.a, 'alpha')
  const beta = await lane(world.b, 'beta')
  const result = async (machine: Machine, worktree: string, args: string[] = []) => {
    const run = await runCli(['sync', '--json', ...args], { cwd: worktree, env: machine.env })
    return { code: run.code, json: JSON.parse(run.stdout) as SyncJson }
  }
  writeFileSync(join(alpha, 'alpha.txt'), 'alpha\n')
  assert.equal((await result(world.a, alpha)).json.outcome, 'published-direct')
  const published = git(origin, 'rev-parse', 'refs/heads/main')

  // Someone pushes straight to the shared remote's main from a clone of their own (no sangam there).
  const elsewhere = join(world.root.path, 'elsewhere')
  git(world.root.path, 'clone', '-q', origin, elsewhere)
  git(elsewhere, 'config', 'user.email', 'e@x.dev')
  git(elsewhere, 'config', 'user.name', 'e')
  writeFileSync(join(elsewhere, 'hot.txt'), 'hotfix\n')
  git(elsewhere, 'add', '-A')
  git(elsewhere, 'commit', '-q', '-m', 'hotfix pushed by hand')
  git(elsewhere, 'push', '-q', 'origin', 'HEAD:main')
  const outside = git(origin, 'rev-parse', 'refs/heads/main')

  // Machine B fetches it in its sync: refused, nothing moved here, and the team's record named.
  writeFileSync(join(beta, 'beta.txt'), 'beta\n')
  const before = git(world.b.repo, 'rev-parse', 'refs/heads/main')
  const refused = await result(world.b, beta)
  assert.equal(refused.code, 12, JSON.stringify(refused.json))
  assert.equal(refused.json.error?.code, 'main-moved-outside')
  assert.match(
    refused.json.error?.message ?? '',
    new RegExp(`origin/main moved outside sangam.*${outside}.*${published}`),
  )
  assert.match(
    refused.json.error?.next ?? '',
    new RegExp(`sangam sync --accept-main ${outside.slice(0, 12)}`),
  )
  assert.match(refused.json.error?.next ?? '', /push --no-verify --force-with-lease=refs\/heads\/main:/)
  assert.equal(git(world.b.repo, 'rev-parse', 'refs/heads/main'), before, "B's main did not follow it")
  const status = await world.b.cliJson<{ mainOutside: { where: string; commit: string } | null }>(['status'])
  assert.deepEqual([status.mainOutside?.where, status.mainOutside?.commit], ['remote', outside])

  // Accepted on B: the team's record moves, B builds on it, and A no longer finds it outside.
  const accepted = await result(world.b, beta, ['--accept-main', outside.slice(0, 12)])
  assert.equal(accepted.code, 0, JSON.stringify(accepted.json))
  assert.equal(accepted.json.outcome, 'published-merge')
  assert.equal(git(origin, 'show', 'refs/heads/main:hot.txt'), 'hotfix')
  writeFileSync(join(alpha, 'alpha.txt'), 'alpha again\n')
  const after = await result(world.a, alpha)
  assert.equal(after.code, 0, JSON.stringify(after.json))
  assert.equal(after.json.outcome, 'published-merge')
  assert.equal((await world.a.cliJson<{ mainOutside: unknown }>(['status'])).mainOutside, null)
})
