import assert from 'node:assert/strict'
import { renameSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { gitCallLog } from './helpers/git-call-log.ts'
import { type LaneProject, laneProject } from './helpers/lane-fixture.ts'
import { git, tmpDir } from './helpers/tmp-git-repo.ts'

/**
 * A solo user with a remote and no team server (D303): the guard refuses `git push origin main`,
 * so sync is what brings the remote's main along, with the lane branches and recovery refs, best
 * effort: a failure is a warning naming the cause, and the next sync pushes again.
 */
interface Synced {
  outcome: string
  main: string
  warnings: string[]
}

/** A lane project whose repository has a bare `origin` (its path in `origin`), gone with it. */
async function soloWithRemote(): Promise<LaneProject & { readonly origin: string }> {
  const dir = tmpDir()
  const origin = join(dir.path, 'origin.git')
  git(dir.path, 'init', '-q', '--bare', '-b', 'main', origin)
  const p = await laneProject()
  // Before any sangam command: the project's identity comes from the remote.
  git(p.repo.path, 'remote', 'add', 'origin', origin)
  return {
    ...p,
    origin,
    async [Symbol.asyncDispose]() {
      await p[Symbol.asyncDispose]()
      await dir[Symbol.asyncDispose]()
    },
  }
}

test("solo with a remote: each publish moves origin's main, and the lane branch and recovery refs go too", async () => {
  await using p = await soloWithRemote()
  const { origin } = p
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'one\n')
  const first = await p.json<Synced>(['sync'], { cwd: alice, code: 0 })
  assert.equal(first.outcome, 'published-direct')
  assert.deepEqual(first.warnings, [])
  assert.equal(git(origin, 'rev-parse', 'refs/heads/main'), p.main())
  assert.equal(git(origin, 'rev-parse', 'refs/heads/lane/alice'), p.head(alice))

  // Every publish: origin follows each one.
  for (const n of [2, 3]) {
    p.write(alice, 'a.txt', `${n}\n`)
    assert.equal((await p.json<Synced>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')
    assert.equal(git(origin, 'rev-parse', 'refs/heads/main'), p.main(), `publish ${n}`)
  }
  // A remote the user does not push to is opted out of.
  assert.equal((await p.cli(['option-set', 'lanes.push-remote', 'none'])).code, 0)
  const pushed = p.main()
  p.write(alice, 'a.txt', 'kept here\n')
  assert.deepEqual((await p.json<Synced>(['sync'], { cwd: alice, code: 0 })).warnings, [])
  assert.equal(git(origin, 'rev-parse', 'refs/heads/main'), pushed)
})

test('solo: a sync that changed nothing pushes nothing; a new recovery ref is pushed', async () => {
  await using p = await soloWithRemote()
  await using scratch = tmpDir()
  const log = gitCallLog(scratch.path)
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'one\n')
  assert.equal((await p.json<Synced>(['sync'], { cwd: alice, code: 0 })).outcome, 'published-direct')
  assert.equal(git(p.origin, 'rev-parse', 'refs/heads/lane/alice'), p.head(alice))
  const verbs = async (): Promise<string[]> => {
    log.reset()
    const synced = await p.json<Synced>(['sync'], { cwd: alice, code: 0, env: { PATH: log.path } })
    assert.deepEqual(synced.warnings, [])
    return log.calls().map((call) => call.join(' '))
  }
  // In step: git is asked only what only git can say (the worktree's status), and pushes nothing.
  const idle = await verbs()
  assert.deepEqual(
    idle.filter((call) => !call.startsWith('status ')),
    [],
    `an unchanged sync ran more git than its status: ${idle.join('; ')}`,
  )
  // A recovery ref has no remote-tracking copy: the next sync sends it.
  git(p.repo.path, 'update-ref', 'refs/sangam/backup/alice/1', 'HEAD')
  const withRecovery = await verbs()
  assert.ok(
    withRecovery.some((call) => call.startsWith('push ') && call.includes('+refs/sangam/*:refs/sangam/*')),
    withRecovery.join('; '),
  )
  assert.equal(
    git(p.origin, 'rev-parse', 'refs/sangam/backup/alice/1'),
    git(p.repo.path, 'rev-parse', 'HEAD'),
  )
})

test('solo: an unreachable remote is a warning, main is published here, and the next sync pushes it', async () => {
  await using p = await soloWithRemote()
  const { origin } = p
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'one\n')
  await p.json<Synced>(['sync'], { cwd: alice, code: 0 })
  const before = git(origin, 'rev-parse', 'refs/heads/main')

  // The remote goes away (its URL stays: the project's identity comes from it).
  const gone = join(origin, '..', 'gone.git')
  renameSync(origin, gone)
  p.write(alice, 'a.txt', 'two\n')
  const offline = await p.cli(['sync'], { cwd: alice })
  assert.equal(offline.code, 0, offline.stderr)
  assert.match(
    offline.stderr,
    /^warning: could not push main to origin; the next sangam sync tries again\. git push said: .*origin\.git/m,
  )
  assert.notEqual(p.main(), before, 'main moved here all the same')

  renameSync(gone, origin)
  const retried = await p.json<Synced>(['sync'], { cwd: alice, code: 0 })
  assert.equal(retried.outcome, 'already-synced')
  assert.deepEqual(retried.warnings, [])
  assert.equal(git(origin, 'rev-parse', 'refs/heads/main'), p.main(), 'the next sync pushed it')
})

test('solo: a remote main with commits this main lacks is never overwritten; the warning says how to bring them in', async () => {
  await using p = await soloWithRemote()
  const { origin } = p
  const alice = await p.lane('alice')
  p.write(alice, 'a.txt', 'one\n')
  await p.json<Synced>(['sync'], { cwd: alice, code: 0 })
  // Someone else moved origin's main (a merged pull request, say).
  const other = join(origin, '..', 'other')
  git(join(origin, '..'), 'clone', '-q', origin, other)
  git(other, 'config', 'user.email', 'o@x.dev')
  git(other, 'config', 'user.name', 'o')
  git(other, 'commit', '-q', '--allow-empty', '-m', 'elsewhere')
  git(other, 'push', '-q', 'origin', 'main')
  const theirs = git(origin, 'rev-parse', 'refs/heads/main')

  p.write(alice, 'a.txt', 'two\n')
  const published = await p.json<Synced>(['sync'], { cwd: alice, code: 0 })
  assert.equal(published.outcome, 'published-direct')
  assert.equal(git(origin, 'rev-parse', 'refs/heads/main'), theirs, 'never overwritten')
  assert.match(
    published.warnings.join('\n'),
    /origin's main has commits this main lacks.*git merge origin\/main in the lane and sangam sync/,
  )
})

test("a publish the pre-push lease gate refuses says the gate's own words, not git's summary", async () => {
  await using p = await soloWithRemote()
  const { origin } = p
  const alice = await p.lane('alice')
  p.write(alice, 'notes.md', 'one\n')
  await p.json<Synced>(['sync'], { cwd: alice, code: 0 })
  const claimed = await p.cli(['claim', 'notes.md', '--reason', 'rewriting the notes'], { user: 'bob@x.dev' })
  assert.equal(claimed.code, 0, claimed.stderr)

  p.write(alice, 'notes.md', 'two\n')
  const published = await p.json<Synced>(['sync'], { cwd: alice, code: 0, user: 'alice@x.dev' })
  assert.equal(published.outcome, 'published-direct')
  const said = published.warnings.join('\n')
  assert.match(said, /could not push main to origin/)
  assert.match(said, /push refused: it changes files leased by someone else/)
  assert.match(said, /notes\.md: .*bob@x\.dev/)
  assert.doesNotMatch(said, /failed to push some refs/)
  assert.notEqual(git(origin, 'rev-parse', 'refs/heads/main'), p.main())
})
