import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { laneProject, recoverable } from './helpers/lane-fixture.ts'
import { isolatedEnv, spawnCli } from './helpers/run-cli.ts'
import type { RefusalJson, SyncJson } from './helpers/sync-json.ts'
import { git } from './helpers/tmp-git-repo.ts'

const report = 'Checked greet on main and the snapshot.\n## Commands\n- `node --check src/app.js` → passed\n'

test('C2: a lane is a git-excluded worktree on lane/<name> with its owner identity; status shows it, the lock free', async () => {
  await using p = await laneProject()
  const entered = await p.json<{ lane: Record<string, string>; agent: unknown }>(
    ['lane', 'alice', '--no-agent'],
    { code: 0, user: 'alice@x.dev' },
  )
  assert.deepEqual(entered.lane, {
    name: 'alice',
    branch: 'lane/alice',
    worktree: join(p.repo.path, '.sangam', 'lanes', 'alice'),
    state: 'clean',
    owner: 'alice@x.dev',
  })
  assert.equal(entered.agent, null)
  const exclude = readFileSync(join(p.repo.path, '.git', 'info', 'exclude'), 'utf8')
  assert.match(exclude, /^\/\.sangam\/$/m)
  assert.equal(
    git(p.repo.path, 'status', '--porcelain'),
    '',
    'the lane folder is invisible to the main worktree',
  )
  assert.equal(git(entered.lane.worktree ?? '', 'config', 'user.email'), 'dev@example.com')
  assert.equal(git(entered.lane.worktree ?? '', 'config', '--worktree', 'user.email'), 'dev@example.com')
  const status = await p.json<{ lock: unknown; lanes: { name: string; state: string; behind: number }[] }>(
    ['status'],
    { code: 0 },
  )
  assert.equal(status.lock, null)
  assert.deepEqual(
    status.lanes.map((lane) => [lane.name, lane.state, lane.behind]),
    [['alice', 'clean', 0]],
  )
  const agents = readFileSync(join(entered.lane.worktree ?? '', 'AGENTS.md'), 'utf8')
  for (const phrase of [
    'affects only this lane',
    'may publish it directly',
    'tries a normal Git merge under the integration lock',
    'Only if Git cannot merge cleanly',
    'behavioural union',
    'stop and ask the user',
  ])
    assert.ok(agents.includes(phrase), phrase)
  const bad = await p.cli(['lane', '../x'])
  assert.equal(bad.code, 2)
  const outside = await p.json<RefusalJson>(['sync'], { code: 12 })
  assert.equal(outside.error.code, 'not-a-lane')
  assert.match(outside.error.next, /inside a lane/)
  await p.checkInvariants()
})

test('C5/C6: catch-up moves only the caller, a dirty lane on main publishes directly, a divergent one merges', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const carol = await p.lane('carol')
  p.write(alice, 'a.txt', 'alice\n')
  const direct = await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })
  assert.equal(direct.outcome, 'published-direct')
  assert.equal(p.main(), p.head(alice))
  assert.equal(git(p.repo.path, 'log', '-1', '--format=%ae', 'main'), 'dev@example.com')
  assert.ok(existsSync(join(p.repo.path, 'a.txt')), 'the main worktree follows main')
  assert.equal(git(p.repo.path, 'status', '--porcelain'), '')
  const carolBefore = p.head(carol)
  const caught = await p.json<SyncJson>(['sync'], { cwd: bob, code: 0 })
  assert.equal(caught.outcome, 'caught-up')
  assert.equal(p.head(bob), p.main())
  assert.equal(p.head(carol), carolBefore, 'another lane is never moved')
  assert.equal((await p.json<SyncJson>(['sync'], { cwd: bob, code: 0 })).outcome, 'already-synced')
  p.write(carol, 'c.txt', 'carol\n')
  const merged = await p.json<SyncJson>(['sync'], { cwd: carol, code: 0 })
  assert.equal(merged.outcome, 'published-merge')
  assert.equal(
    git(p.repo.path, 'rev-list', '--parents', '-n', '1', 'main').split(' ').length,
    3,
    'a two-parent merge',
  )
  assert.ok(existsSync(join(p.repo.path, 'a.txt')) && existsSync(join(p.repo.path, 'c.txt')))
  assert.equal(p.head(bob), direct.main, 'bob stays where he was')
  const log = await p.json<{ events: { type: string }[] }>(['log'], { code: 0 })
  assert.ok(log.events.some((event) => event.type === 'sync.published-merge'))
  await p.checkInvariants()
})

test("a clean merge is committed from git's trial and checked out in the lane; an ignored file in its way is overwritten as git merge does", async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  p.write(alice, 'build/out.txt', 'published by alice\n')
  assert.equal((await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')
  // bob has diverged, and holds an ignored file where main now has a tracked one.
  p.write(bob, 'b.txt', 'bob\n')
  const exclude = join(git(bob, 'rev-parse', '--git-common-dir'), 'info', 'exclude')
  writeFileSync(exclude, `${readFileSync(exclude, 'utf8')}/build/\n`)
  p.write(bob, 'build/out.txt', 'a local build\n')
  const merged = await p.json<SyncJson>(['sync'], { cwd: bob, code: 0 })
  assert.equal(merged.outcome, 'published-merge')
  assert.equal(p.head(bob), p.main())
  assert.equal(readFileSync(join(bob, 'build', 'out.txt'), 'utf8'), 'published by alice\n')
  assert.equal(git(bob, 'status', '--porcelain'), '', 'the lane is its merge, nothing left uncommitted')

  // The usual case, nothing in the way: the merge is two parents, the lane's work and main.
  p.write(alice, 'a2.txt', 'alice again\n')
  assert.equal((await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-merge')
  const mainBefore = p.main()
  p.write(bob, 'b2.txt', 'bob again\n')
  const second = await p.json<SyncJson>(['sync'], { cwd: bob, code: 0 })
  assert.equal(second.outcome, 'published-merge')
  const [, first, other] = git(p.repo.path, 'rev-list', '--parents', '-n', '1', 'main').split(' ')
  assert.equal(other, mainBefore, "main's side is the main it merged")
  assert.match(
    git(bob, 'show', '-s', '--format=%s', first ?? ''),
    /^sangam snapshot: bob /,
    "the lane's side is its snapshot",
  )
  assert.match(git(bob, 'show', '-s', '--format=%s', 'HEAD'), /^sangam merge: bob /)
  assert.ok(existsSync(join(bob, 'a2.txt')) && existsSync(join(p.repo.path, 'b2.txt')))
  assert.equal(git(bob, 'status', '--porcelain'), '')
  await p.checkInvariants()
})

test('C5/C11/C19: a conflict starts a semantic task under the lock; others are busy; the report is checked; publishing frees the lock', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const carol = await p.lane('carol')
  p.write(alice, 'src/app.js', 'export function greet() {\n  return "hello, alice"\n}\n')
  await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })
  p.write(bob, 'src/app.js', 'export function greet() {\n  return "hello, bob"\n}\n')
  const mainBefore = p.main()
  const started = await p.json<SyncJson>(['sync'], { cwd: bob, code: 0 })
  assert.equal(started.outcome, 'task-started')
  assert.equal(started.main, mainBefore, 'main is not moved')
  assert.equal(started.channel, 'printed')
  assert.match(started.taskText ?? '', /behavioural union/)
  assert.ok(started.task !== null)
  assert.equal(p.head(bob), mainBefore, 'the lane is reset to the latest main')
  assert.ok(recoverable(p, 'src/app.js', 'hello, bob'), "bob's work is under refs/sangam/")
  const task = started.task
  const text = readFileSync(task.file, 'utf8')
  assert.match(text, /stop and ask the user/)
  assert.match(text, /hello, bob/)
  await p.checkInvariants()

  // Another lane with work to publish is busy; nothing moves.
  p.write(carol, 'c.txt', 'carol\n')
  const carolHead = p.head(carol)
  const busy = await p.json<RefusalJson>(['sync'], { cwd: carol, code: 12 })
  assert.equal(busy.error.code, 'integration-busy')
  assert.match(busy.error.message, /lane bob/)
  assert.match(busy.error.next, /sangam sync again/)
  assert.equal(p.main(), mainBefore)
  assert.equal(p.head(carol), carolHead)
  assert.ok(existsSync(join(carol, 'c.txt')))

  // Re-entering reports the task first; status shows its handles.
  const again = await p.json<{ notices: string[] }>(['lane', 'bob'], { code: 0 })
  assert.match(again.notices[0] ?? '', /unfinished sync task .* must be handled first/)
  const status = await p.json<{
    lock: { lane: string; task: string }
    lanes: { name: string; task: { snapshot: string; base: string } | null; next: string }[]
  }>(['status'], { code: 0 })
  assert.equal(status.lock.lane, 'bob')
  assert.equal(status.lock.task, task.id)
  const bobView = status.lanes.find((lane) => lane.name === 'bob')
  assert.ok(bobView?.task?.snapshot && bobView.task.base === mainBefore)

  // No candidate yet, then a candidate without a report, then a short one.
  assert.equal((await p.json<RefusalJson>(['sync'], { cwd: bob, code: 12 })).error.code, 'task-no-candidate')
  p.write(
    bob,
    'src/app.js',
    'export function greet(who = "alice") {\n  return "hello, " + who // bob: who is configurable\n}\n',
  )
  const dirty = await p.json<RefusalJson>(['sync'], { cwd: bob, code: 12 })
  assert.equal(dirty.error.code, 'task-dirty')
  assert.match(dirty.error.message, /uncommitted changes \(M src\/app\.js \(1 file\)\)/, 'it names the file')
  p.commit(bob, 'union of alice and bob')
  const missing = await p.json<RefusalJson>(['sync'], { cwd: bob, code: 12 })
  assert.equal(missing.error.code, 'validation-missing')
  assert.match(missing.error.next, /stay in lane bob/)
  writeFileSync(task.validationFile, 'ok')
  assert.equal(
    (await p.json<RefusalJson>(['sync'], { cwd: bob, code: 12 })).error.code,
    'validation-incomplete',
  )
  assert.equal(p.main(), mainBefore, 'no refusal moved main')
  await p.checkInvariants()
  writeFileSync(task.validationFile, report)
  const published = await p.json<SyncJson>(['sync'], { cwd: bob, code: 0 })
  assert.equal(published.outcome, 'published-task')
  assert.equal(p.main(), p.head(bob))
  assert.equal((await p.json<{ lock: unknown }>(['status'], { code: 0 })).lock, null)

  // carol's retry now merges cleanly.
  assert.equal((await p.json<SyncJson>(['sync'], { cwd: carol, code: 0 })).outcome, 'published-merge')
  assert.ok(existsSync(join(p.repo.path, 'c.txt')))
  assert.match(readFileSync(join(p.repo.path, 'src/app.js'), 'utf8'), /bob: who is configurable/)
  await p.checkInvariants()
})

test('C8/C10: a dirty main worktree refuses the publish without a lasting block; a retry after cleaning publishes', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'alice\n')
  p.repo.write('scratch.txt', 'untracked in main\n')
  const before = p.main()
  for (const n of [1, 2, 3, 4, 5, 6]) p.repo.write(`notes/${n}.txt`, `${n}\n`)
  const refused = await p.json<RefusalJson>(['sync'], { cwd: alice, code: 12 })
  assert.equal(refused.error.code, 'main-dirty')
  assert.match(refused.error.message, /\(\?\? notes\/1\.txt, \?\? notes\/2\.txt, .* and 2 more \(7 files\)\)/)
  assert.match(refused.error.next, /nothing was moved/)
  assert.equal(p.main(), before)
  assert.ok(existsSync(join(p.repo.path, 'scratch.txt')), 'the untracked file is kept')
  assert.equal(readFileSync(join(alice, 'a.txt'), 'utf8'), 'alice\n')
  await p.checkInvariants()
  rmSync(join(p.repo.path, 'scratch.txt'))
  rmSync(join(p.repo.path, 'notes'), { recursive: true })
  assert.equal((await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')
})

test("a main worktree holding exactly another commit's files staged (a refused move half-run) is named, with the command that puts it back", async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'alice\n')
  const laneCommit = p.commit(alice, 'lane work')
  // What a `git reset --hard <lane commit>` leaves on main when the ref move is refused after git
  // rewrote the files (a guard from before D304): the lane commit's files, staged over main.
  execFileSync('git', ['read-tree', '-m', '-u', 'HEAD', laneCommit], { cwd: p.repo.path })
  const before = p.main()
  const refused = await p.json<RefusalJson>(['sync'], { cwd: alice, code: 12 })
  assert.equal(refused.error.code, 'main-dirty')
  assert.match(refused.error.message, /\(A a\.txt \(1 file\)\)/)
  assert.match(refused.error.message, new RegExp(`exactly commit ${laneCommit.slice(0, 12)}'s files`))
  const command = /put the worktree back as main is: (git -C \S+ reset --hard) /.exec(refused.error.next)?.[1]
  assert.ok(command, refused.error.next)
  execFileSync('sh', ['-c', command])
  assert.equal(p.main(), before, 'the command the refusal gave passes the guard and moves nothing')
  assert.equal((await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')
})

test('C14: a task that cannot reach an agent lane (no tmux) is refused and the lane restored as it was', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob', 'codex')
  p.write(alice, 'src/app.js', 'alice\n')
  await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })
  p.write(bob, 'src/app.js', 'bob\n')
  p.write(bob, 'notes/new.txt', 'untracked work\n')
  const before = p.main()
  const bobHead = p.head(bob)
  const refused = await p.json<RefusalJson>(['sync'], { cwd: bob, code: 12 })
  assert.equal(refused.error.code, 'task-undeliverable')
  assert.match(refused.error.next, /tmux/)
  assert.equal(p.main(), before)
  assert.equal(p.head(bob), bobHead, 'the snapshot commit is undone')
  assert.equal(readFileSync(join(bob, 'src/app.js'), 'utf8'), 'bob\n')
  assert.equal(readFileSync(join(bob, 'notes/new.txt'), 'utf8'), 'untracked work\n')
  const status = await p.json<{ lock: unknown; lanes: { name: string; task: unknown; state: string }[] }>(
    ['status'],
    { code: 0 },
  )
  assert.equal(status.lock, null)
  assert.deepEqual(status.lanes.find((lane) => lane.name === 'bob')?.task, null)
  await p.checkInvariants()
})

test('a project check command runs on every candidate; a failing one refuses and main stays', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  await p.json(['option-set', 'lanes.check-command', 'test ! -e broken.txt'], { code: 0 })
  p.write(alice, 'broken.txt', 'x\n')
  const before = p.main()
  const refused = await p.json<RefusalJson>(['sync'], { cwd: alice, code: 12 })
  assert.equal(refused.error.code, 'check-failed')
  assert.equal(p.main(), before)
  assert.ok(existsSync(join(alice, 'broken.txt')), 'the work is back as it was')
  assert.equal(p.head(alice), before)
  rmSync(join(alice, 'broken.txt'))
  p.write(alice, 'fine.txt', 'x\n')
  assert.equal((await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')
  await p.checkInvariants()
})

test('C16/C17: a task without its file is refused with the lock kept; sangam up restores the lane after a backup', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const started = await p.conflict<SyncJson>(alice, bob)
  assert.ok(started.task !== null)
  p.write(bob, 'src/app.js', 'bob, half merged\n')
  p.commit(bob, 'half')
  p.write(bob, 'wip.txt', 'dirty candidate work\n')
  rmSync(started.task.file)
  const refused = await p.json<RefusalJson>(['sync'], { cwd: bob, code: 12 })
  assert.equal(refused.error.code, 'task-file-missing')
  assert.equal((await p.json<{ lock: { lane: string } }>(['status'], { code: 0 })).lock.lane, 'bob')
  await p.checkInvariants()
  // sangam up normalises lanes before it says it started.
  const up = spawnCli(['up', '--json'], {
    cwd: p.repo.path,
    env: isolatedEnv(p.home.path, { SANGAM_USER: 'dev@example.com' }),
  })
  await new Promise((resolve) => up.stdout?.once('data', resolve))
  up.kill('SIGTERM')
  await new Promise((resolve) => up.once('close', resolve))
  const status = await p.json<{ lock: unknown; lanes: { name: string; task: unknown }[] }>(['status'], {
    code: 0,
  })
  assert.equal(status.lock, null)
  assert.equal(status.lanes.find((lane) => lane.name === 'bob')?.task, null)
  const backups = p.refs('refs/sangam/backups/')
  assert.equal(backups.filter((ref) => ref.endsWith('/head')).length, 1, backups.join('\n'))
  assert.ok(recoverable(p, 'src/app.js', 'bob, half merged'), 'the committed candidate is backed up')
  assert.ok(recoverable(p, 'wip.txt', 'dirty candidate work'), 'the dirty candidate is backed up')
  assert.equal(readFileSync(join(bob, 'src/app.js'), 'utf8'), 'bob\n', 'the lane has its snapshot back')
  await p.checkInvariants()
})

test("C20: a stale lock is taken over with a reason after its owner's work is saved; a fresh one is not", async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const carol = await p.lane('carol')
  await p.conflict(alice, bob)
  p.write(bob, 'src/app.js', 'bob, mid-task\n')
  p.write(carol, 'c.txt', 'carol\n')
  const fresh = await p.json<RefusalJson>(['sync', '--takeover', '--reason', 'bob is away'], {
    cwd: carol,
    code: 12,
  })
  assert.equal(fresh.error.code, 'lock-not-stale')
  p.db((db) =>
    db
      .prepare('UPDATE integration_lock SET heartbeat_at = heartbeat_at - 3600000, since = since - 3600000')
      .run(),
  )
  const busy = await p.json<RefusalJson>(['sync'], { cwd: carol, code: 12 })
  assert.match(busy.error.next, /--takeover/)
  const took = await p.json<SyncJson & { takeover: { from: string; backupRefs: string[] } }>(
    ['sync', '--takeover', '--reason', 'bob is away'],
    { cwd: carol, code: 0 },
  )
  assert.equal(took.takeover.from, 'bob')
  assert.equal(took.outcome, 'published-merge')
  assert.ok(took.takeover.backupRefs.some((ref) => ref.startsWith('refs/sangam/takeovers/')))
  assert.ok(recoverable(p, 'src/app.js', 'bob, mid-task'))
  const log = await p.json<{ events: { type: string; payload: { reason?: string } }[] }>(['log'], { code: 0 })
  assert.equal(log.events.find((event) => event.type === 'lock.taken-over')?.payload.reason, 'bob is away')
  await p.checkInvariants()
})

test('C22: re-entering reports local work or being behind, and never moves the worktree', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  p.write(alice, 'a.txt', 'alice\n')
  assert.match(
    (await p.json<{ notices: string[] }>(['lane', 'alice'], { code: 0 })).notices[0] ?? '',
    /local work that is not integrated/,
  )
  await p.json<SyncJson>(['sync'], { cwd: alice, code: 0 })
  const bobHead = p.head(bob)
  assert.match(
    (await p.json<{ notices: string[] }>(['lane', 'bob'], { code: 0 })).notices[0] ?? '',
    /behind the latest main/,
  )
  assert.equal(p.head(bob), bobHead)
})

test('C4: delete saves head and dirty work, writes a manifest, removes worktree and branch; a lane with a task is refused', async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  const bob = await p.lane('bob')
  const carol = await p.lane('carol')
  p.write(alice, 'a.txt', 'committed\n')
  p.commit(alice, 'alice work')
  p.write(alice, 'b.txt', 'dirty\n')
  const deleted = await p.json<{ lane: string; manifest: string; backupRefs: string[] }>(
    ['delete', 'alice'],
    { code: 0 },
  )
  assert.equal(deleted.backupRefs.length, 2)
  assert.ok(existsSync(deleted.manifest))
  assert.ok(!existsSync(alice))
  assert.equal(git(p.repo.path, 'branch', '--list', 'lane/alice'), '')
  assert.ok(recoverable(p, 'a.txt', 'committed') && recoverable(p, 'b.txt', 'dirty'))
  await p.conflict(carol, bob)
  assert.equal((await p.json<RefusalJson>(['delete', 'bob'], { code: 12 })).error.code, 'lane-owns-lock')
  p.write(carol, 'build/out.bin', 'x')
  writeFileSync(join(carol, '.gitignore'), 'build/\n')
  p.commit(carol, 'ignore build')
  p.write(carol, 'build/out.bin', 'x')
  assert.equal(
    (await p.json<RefusalJson>(['delete', 'carol'], { code: 12 })).error.code,
    'lane-ignored-files',
  )
  assert.equal((await p.json<RefusalJson>(['delete', 'nobody'], { code: 12 })).error.code, 'unknown-lane')
  await p.checkInvariants()
})
