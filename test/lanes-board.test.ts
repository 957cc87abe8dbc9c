import assert from 'node:assert/strict'
import { test } from 'node:test'
import { laneProject } from './helpers/lane-fixture.ts'
import { isolatedEnv } from './helpers/run-cli.ts'
import { git } from './helpers/tmp-git-repo.ts'
import { runAgentHook, sessionEvent } from './hooks-agent-run.ts'

interface BoardLane {
  name: string
  state: string
  owner: string
  agent: string | null
  behind: number
  dirty: boolean
  task: string | null
  next: string
}
interface Board {
  columns: Record<string, unknown[]>
  lanes: BoardLane[]
  lock: {
    lane: string
    owner: string
    task: string | null
    since: number
    heartbeatAt: number
    stale: boolean
  } | null
  lanesError: unknown
}
interface Brief {
  text: string
  sections: { key: string; title: string; lines: string[]; total: number }[]
}

const lanesOf = (brief: Brief) => brief.sections.find((section) => section.key === 'lanes')

test('the board shows every lane and a held lock; the brief leads with the reader’s lane, its next step and the lock', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const carol = await p.lane('carol', 'codex')
  const quiet = await p.json<Board>(['board'], { code: 0 })
  assert.equal(quiet.lock, null)
  assert.deepEqual(
    quiet.lanes.map((lane) => [lane.name, lane.state, lane.owner, lane.behind, lane.dirty, lane.task]),
    [
      ['alice', 'clean', 'alice@x.dev', 0, false, null],
      ['bob', 'clean', 'bob@x.dev', 0, false, null],
      ['carol', 'clean', 'carol@x.dev', 0, false, null],
    ],
  )
  assert.equal(quiet.lanes[2]?.agent, 'codex')
  // dave stays clean: once main moves it is merely behind, which sync catches up at once, lock or not.
  const dave = await p.lane('dave')

  // alice publishes, bob collides with her: a semantic task under the lock; carol has work waiting.
  p.write(alice, 'src/app.js', 'export function greet() {\n  return "hello, alice"\n}\n')
  await p.json(['sync'], { cwd: alice, code: 0 })
  p.write(bob, 'src/app.js', 'export function greet() {\n  return "hello, bob"\n}\n')
  const started = await p.json<{ outcome: string; task: { id: string } }>(['sync'], { cwd: bob, code: 0 })
  assert.equal(started.outcome, 'task-started')
  p.write(carol, 'c.txt', 'carol\n')

  const board = await p.json<Board>(['board'], { code: 0 })
  const status = await p.json<{ lock: Board['lock']; lanes: { name: string; next: string }[] }>(['status'], {
    code: 0,
  })
  assert.deepEqual(board.lock, status.lock, 'the board reads the lock as sangam status does')
  assert.equal(board.lock?.lane, 'bob')
  assert.equal(board.lock?.task, started.task.id)
  assert.equal(board.lock?.stale, false)
  assert.equal(board.lanesError, null)
  const byName = new Map(board.lanes.map((lane) => [lane.name, lane]))
  assert.deepEqual(
    board.lanes.map((lane) => lane.next),
    status.lanes.map((lane) => lane.next),
  )
  assert.equal(byName.get('bob')?.state, 'task')
  assert.equal(byName.get('bob')?.task, started.task.id)
  assert.equal(byName.get('carol')?.dirty, true)
  assert.equal(byName.get('carol')?.behind, 1, 'alice moved main')
  assert.match(byName.get('carol')?.next ?? '', /wait for lane bob to publish/)
  assert.equal(byName.get('dave')?.behind, 1)
  assert.equal(
    byName.get('dave')?.next,
    'run sangam sync to catch up',
    'a clean lane behind waits for nobody',
  )

  const text = (await p.cli(['board'])).stdout
  assert.match(text, /^LANES \(4\)$/m)
  assert.match(
    text,
    new RegExp(`lock: lane bob \\(bob@x\\.dev\\), task ${started.task.id}, held \\d+ min$`, 'm'),
  )
  assert.match(text, /^ {2}carol \(carol@x\.dev, codex\): dirty, behind 1$/m)
  assert.match(text, /^ {4}next: wait for lane bob to publish, then run sangam sync$/m)

  const inCarol = lanesOf(await p.json<Brief>(['brief'], { cwd: carol, code: 0 }))
  assert.equal(inCarol?.title, 'Lane carol')
  assert.match(
    inCarol?.lines[0] ?? '',
    /^You work in lane carol \(branch lane\/carol\): dirty, behind main by 1\. Next: wait for lane bob to publish/,
  )
  assert.match(
    inCarol?.lines[1] ?? '',
    new RegExp(`^Integration lock: lane bob \\(bob@x\\.dev\\), task ${started.task.id}, held`),
  )
  assert.ok(
    inCarol?.lines.some((line) => /^Never move main by hand/.test(line)),
    'the lane rules follow',
  )
  assert.match(
    inCarol?.lines.at(-1) ?? '',
    new RegExp(
      `^Other lanes: alice \\(alice@x\\.dev\\); bob \\(bob@x\\.dev, task ${started.task.id}\\); dave \\(dave@x\\.dev\\)\\.$`,
    ),
  )

  const inBob = lanesOf(await p.json<Brief>(['brief'], { cwd: bob, code: 0 }))
  assert.match(
    inBob?.lines[0] ?? '',
    new RegExp(`^You work in lane bob .*: task ${started.task.id}\\. Next: finish task`),
  )
  // The task's files whole, on lines of their own and relative to the lane, whatever the path's length.
  assert.equal(inBob?.lines[1], `Task file: .sangam/tasks/${started.task.id}.md`)
  assert.equal(inBob?.lines[2], `Validation report: .sangam/tasks/${started.task.id}.validation.md`)
  const inDave = lanesOf(await p.json<Brief>(['brief'], { cwd: dave, code: 0 }))
  assert.match(inDave?.lines[0] ?? '', /: clean, behind main by 1\. Next: run sangam sync to catch up\.$/)

  const inMain = lanesOf(await p.json<Brief>(['brief'], { code: 0 }))
  assert.equal(inMain?.title, 'Lanes')
  assert.match(inMain?.lines[0] ?? '', /^Integration lock: lane bob/)
  assert.ok(!inMain?.lines.some((line) => line.startsWith('Never move')), 'no lane rules outside a lane')

  // The agent starting in carol's lane is told the same before it edits.
  const hook = await runAgentHook(
    'codex',
    sessionEvent(carol, 'SessionStart', '01a2264c-aff5-7b22-ace8-554acdb41e6b'),
    {
      cwd: carol,
      env: isolatedEnv(p.home.path),
    },
  )
  assert.equal(hook.code, 0, hook.stderr)
  const context = hook.output?.hookSpecificOutput?.additionalContext ?? ''
  assert.match(context, /\nLane carol:\n- You work in lane carol [^\n]*Next: wait for lane bob to publish/)
  assert.match(context, /\n- Integration lock: lane bob \(bob@x\.dev\)/)
  assert.ok(context.length <= 2000, `${context.length} characters`)
  await p.checkInvariants()
})

test('a lock silent past lanes.lock-stale-minutes shows stale on the board, in status and in the brief', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  await p.conflict(alice, bob)
  assert.equal((await p.json<Board>(['board'], { code: 0 })).lock?.stale, false)
  p.db((db) =>
    db
      .prepare('UPDATE integration_lock SET heartbeat_at = heartbeat_at - 3600000, since = since - 3600000')
      .run(),
  )
  const board = await p.json<Board>(['board'], { code: 0 })
  assert.equal(board.lock?.lane, 'bob')
  assert.equal(board.lock?.stale, true)
  assert.equal((await p.json<{ lock: { stale: boolean } }>(['status'], { code: 0 })).lock.stale, true)
  assert.match(
    (await p.cli(['board'])).stdout,
    /lock: lane bob \(bob@x\.dev\), task [^,]+, held 60 min, stale \(silent 60 min\)\n {4}a human may take it over: sangam sync --takeover --reason/,
  )
  assert.match((await p.cli(['status'])).stdout, /lock: lane bob .*60 min, stale/)
  const brief = lanesOf(await p.json<Brief>(['brief'], { cwd: alice, code: 0 }))
  assert.match(
    brief?.lines[1] ?? '',
    /^Integration lock: lane bob .*held 60 min, stale \(silent 60 min\): sangam sync --takeover --reason may take it\.$/,
  )
  await p.checkInvariants()
})

test('without lanes the board adds nothing: an empty list, the lock null, no lanes text', async () => {
  await using p = await laneProject()
  // A read command starts no project (issue 19, item 1), so one is started the way a user would.
  await p.json(['init'], { code: 0 })
  const board = await p.json<Board>(['board'], { code: 0 })
  assert.deepEqual(board.lanes, [])
  assert.equal(board.lock, null)
  assert.equal(board.lanesError, null)
  assert.doesNotMatch((await p.cli(['board'])).stdout, /LANES/)
  const brief = await p.json<Brief>(['brief'], { code: 0 })
  assert.equal(lanesOf(brief), undefined, 'the brief has no lanes section')
})

test('lanes that cannot be read leave the columns on the board and say why (D217)', async () => {
  await using p = await laneProject()
  await p.lane('alice')
  // Without a main branch (main, master or trunk) there is no lane world to read. The guard
  // refuses to move main, so the rename goes around sangam's hooks.
  git(p.repo.path, '-c', 'core.hooksPath=/dev/null', 'branch', '-m', 'main', 'develop')
  const board = await p.json<Board>(['board'], { code: 0 })
  assert.deepEqual(Object.keys(board.columns), ['backlog', 'doing', 'blocked', 'done'])
  assert.deepEqual([board.lanes, board.lock], [[], null])
  assert.equal((board.lanesError as { code: string } | null)?.code, 'INVALID_INPUT')
  assert.match(
    (await p.cli(['board'])).stdout,
    /^LANES: not read \(INVALID_INPUT\): this repository has no main branch/m,
  )
})
