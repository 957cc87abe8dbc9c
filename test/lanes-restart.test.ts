import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync } from 'node:fs'
import { test } from 'node:test'
import { laneProject } from './helpers/lane-fixture.ts'
import { isolatedEnv, spawnCli } from './helpers/run-cli.ts'
import type { RefusalJson, SyncJson } from './helpers/sync-json.ts'
import { tmuxMissing, tmuxServer } from './helpers/tmux-server.ts'

async function upOnce(p: Awaited<ReturnType<typeof laneProject>>): Promise<void> {
  const up = spawnCli(['up', '--json'], {
    cwd: p.repo.path,
    env: isolatedEnv(p.home.path, { SANGAM_USER: 'dev@example.com' }),
  })
  await new Promise((resolve) => up.stdout?.once('data', resolve))
  up.kill('SIGTERM')
  await new Promise((resolve) => up.once('close', resolve))
}

test('C12: a lane another live sync is integrating is refused, nothing moved', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'alice\n')
  p.db((db) =>
    db.prepare(`UPDATE lane SET state = 'integrating', pid = ? WHERE name = 'alice'`).run(process.pid),
  )
  const before = p.main()
  const refused = await p.json<RefusalJson>(['sync'], { cwd: alice, code: 12 })
  assert.equal(refused.error.code, 'sync-in-progress')
  assert.match(refused.error.next, /wait for it to finish/)
  assert.equal(p.main(), before)
})

test('C15: a lane whose base is unknown, with committed work ahead of main, publishes directly', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'alice\n')
  const candidate = p.commit(alice, 'alice ahead')
  p.db((db) => db.prepare(`UPDATE lane SET base = NULL WHERE name = 'alice'`).run())
  const synced = await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })
  assert.equal(synced.outcome, 'published-direct')
  assert.equal(p.main(), candidate)
  const base = p.db(
    (db) => (db.prepare(`SELECT base FROM lane WHERE name = 'alice'`).get() as { base: string }).base,
  )
  assert.equal(base, candidate, 'the baseline is the candidate')
  await p.checkInvariants()
})

test('C18: at start, a lock naming another task of the same lane whose file exists is adopted, after a backup', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const started = await p.conflict<SyncJson>(alice, bob)
  assert.ok(started.task !== null)
  const other = `${started.task.id}-b`
  const otherFile = started.task.file.replace('.md', '-b.md')
  copyFileSync(started.task.file, otherFile)
  p.db((db) => {
    db.prepare(
      `INSERT INTO lane_task (id, lane, file, validation_file, snapshot, base, started_at) SELECT ?, lane, ?, validation_file, snapshot, base, started_at FROM lane_task WHERE id = ?`,
    ).run(other, otherFile, started.task?.id)
    db.prepare('UPDATE integration_lock SET task = ? WHERE id = 1').run(other)
  })
  await upOnce(p)
  const status = await p.json<{
    lock: { lane: string; task: string }
    lanes: { name: string; task: { id: string } | null }[]
  }>(['status'], { code: 0 })
  assert.equal(status.lock.task, other)
  assert.equal(status.lanes.find((lane) => lane.name === 'bob')?.task?.id, other)
  assert.equal(p.refs('refs/sangam/backups/').filter((ref) => ref.endsWith('/head')).length, 1)
  await p.checkInvariants()
})

test("a semantic task is pasted into the lane agent's tmux pane, Enter never pressed", {
  skip: tmuxMissing(),
}, async () => {
  await using p = await laneProject()
  await using tmux = tmuxServer()
  const { env, socket } = tmux
  const alice = await p.lane('alice')
  const entered = await p.json<{ lane: { worktree: string }; agent: { started: boolean; pane: string } }>(
    ['lane', 'bob', '--agent', 'cat'],
    {
      code: 0,
      env,
    },
  )
  assert.equal(entered.agent.started, true)
  const bob = entered.lane.worktree
  const started = await p.conflict<SyncJson>(alice, bob, { env })
  assert.equal(started.outcome, 'task-started')
  assert.equal(started.channel, `tmux:${entered.agent.pane}`)
  let screen = ''
  for (let i = 0; i < 50 && !screen.includes('semantic merge task'); i++) {
    screen = execFileSync('tmux', ['-S', socket, 'capture-pane', '-p', '-J', '-t', entered.agent.pane], {
      encoding: 'utf8',
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.match(screen, /lane bob has a semantic merge task/)
  // Submitted, cat would have printed the line a second time.
  assert.equal(screen.split('has a semantic merge task').length - 1, 1)
  assert.match(screen, /run sangam sync\.\s*$/, 'the prompt sits unsubmitted at the end of the line')
  assert.ok(existsSync(started.task?.file ?? ''))
  await p.checkInvariants()
})
