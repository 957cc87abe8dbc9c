import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { pushLaneRefs } from '../src/lanes/services/lane-refs-push.ts'
import { RefMainPublisher } from '../src/lanes/services/ref-main-publisher.ts'
import { catchUpWithRemote } from '../src/lanes/services/remote-catch-up.ts'
import { type RemoteMain, RemoteMainPublisher } from '../src/lanes/services/remote-main-publisher.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { isSangamError } from '../src/shared/sangam-error.ts'
import { git, tmpDir } from './helpers/tmp-git-repo.ts'

/**
 * The team publisher with real bare repositories: two clones of one remote stand for two
 * machines. Main on the remote moves only by compare-and-swap from the value last fetched.
 */
async function twoClones() {
  const dir = tmpDir()
  const bare = join(dir.path, 'remote.git')
  git(dir.path, 'init', '-q', '--bare', '-b', 'main', bare)
  const clone = (name: string) => {
    const path = join(dir.path, name)
    git(dir.path, 'clone', '-q', bare, path)
    git(path, 'config', 'user.email', `${name}@example.com`)
    git(path, 'config', 'user.name', name)
    git(path, 'config', 'commit.gpgsign', 'false')
    return path
  }
  const alice = clone('alice')
  writeFileSync(join(alice, 'README.md'), '# shared\n')
  git(alice, 'add', '-A')
  git(alice, 'commit', '-q', '-m', 'initial')
  git(alice, 'push', '-q', 'origin', 'main')
  const bob = clone('bob')
  const remoteOf = (root: string): RemoteMain => ({
    root,
    commonDir: join(root, '.git'),
    remote: 'origin',
    mainBranch: 'main',
  })
  /** A commit on a side branch of `root`, built on its main (what a lane's candidate is). */
  const candidate = (root: string, file: string): string => {
    git(root, 'checkout', '-q', '-B', `lane/${file}`, 'main')
    writeFileSync(join(root, file), `${file}\n`)
    git(root, 'add', '-A')
    git(root, 'commit', '-q', '-m', file)
    const sha = git(root, 'rev-parse', 'HEAD')
    git(root, 'checkout', '-q', '--detach')
    return sha
  }
  const remoteMain = () => git(bare, 'rev-parse', 'refs/heads/main')
  const localMain = (root: string) => git(root, 'rev-parse', 'refs/heads/main')
  const publisher = (root: string) =>
    new RemoteMainPublisher(new RefMainPublisher(root, 'main'), remoteOf(root))
  return { dir, bare, alice, bob, remoteOf, candidate, remoteMain, localMain, publisher }
}

test('a publish moves the remote main from the value fetched, then main here', async () => {
  const w = await twoClones()
  await using _ = w.dir
  const from = w.localMain(w.alice)
  const to = w.candidate(w.alice, 'a.txt')
  await w.publisher(w.alice).publish({ from, to })
  assert.equal(w.remoteMain(), to)
  assert.equal(w.localMain(w.alice), to)
})

test('when another machine published first, the publish is refused main-moved and nothing moves anywhere', async () => {
  const w = await twoClones()
  await using _ = w.dir
  const base = w.localMain(w.bob)
  const bobs = w.candidate(w.bob, 'b.txt')
  // Alice publishes first.
  const alices = w.candidate(w.alice, 'a.txt')
  await w.publisher(w.alice).publish({ from: base, to: alices })
  await assert.rejects(
    w.publisher(w.bob).publish({ from: base, to: bobs }),
    (error: unknown) =>
      isSangamError(error) &&
      error.code === 'LANE_REFUSED' &&
      error.wireCode === 'main-moved' &&
      /run sangam sync again/.test(error.next ?? ''),
  )
  assert.equal(w.remoteMain(), alices)
  assert.equal(w.localMain(w.bob), base)

  // Bob catches up (main here fast-forwards to alice's), and now a candidate on top publishes.
  const caught = await catchUpWithRemote(w.remoteOf(w.bob), new RefMainPublisher(w.bob, 'main'))
  assert.deepEqual(caught, { status: 'caught-up', main: alices })
  assert.equal(w.localMain(w.bob), alices)
  const merged = w.candidate(w.bob, 'b2.txt')
  await w.publisher(w.bob).publish({ from: alices, to: merged })
  assert.equal(w.remoteMain(), merged)
})

test('a candidate that lacks what was fetched of the remote main is refused before any push', async () => {
  const w = await twoClones()
  await using _ = w.dir
  const base = w.localMain(w.bob)
  const bobs = w.candidate(w.bob, 'b.txt')
  const alices = w.candidate(w.alice, 'a.txt')
  await w.publisher(w.alice).publish({ from: base, to: alices })
  git(w.bob, 'fetch', '-q', 'origin')
  await assert.rejects(
    w.publisher(w.bob).publish({ from: base, to: bobs }),
    (error: unknown) =>
      isSangamError(error) &&
      error.wireCode === 'main-moved' &&
      /has work this candidate lacks/.test(error.message),
  )
  assert.equal(w.remoteMain(), alices)
})

test('an unreachable remote moves nothing and says so; catch-up warns and goes on', async () => {
  const w = await twoClones()
  await using _ = w.dir
  git(w.bob, 'remote', 'set-url', 'origin', join(w.dir.path, 'gone.git'))
  const base = w.localMain(w.bob)
  const bobs = w.candidate(w.bob, 'b.txt')
  await assert.rejects(
    w.publisher(w.bob).publish({ from: base, to: bobs }),
    (error: unknown) =>
      isSangamError(error) &&
      error.code === 'GIT_FAILED' &&
      /main was not moved here or there/.test(error.message),
  )
  assert.equal(w.localMain(w.bob), base)
  const caught = await catchUpWithRemote(w.remoteOf(w.bob), new RefMainPublisher(w.bob, 'main'))
  assert.equal(caught.status, 'unreachable')
  assert.equal(w.localMain(w.bob), base)
})

test('catch-up never moves main here backwards or sideways', async () => {
  const w = await twoClones()
  await using _ = w.dir
  const base = w.localMain(w.bob)
  const alices = w.candidate(w.alice, 'a.txt')
  await w.publisher(w.alice).publish({ from: base, to: alices })
  // Bob's main moved on its own (a commit made before the guard): diverged from the remote's.
  git(w.bob, 'checkout', '-q', 'main')
  writeFileSync(join(w.bob, 'local.txt'), 'local\n')
  git(w.bob, 'add', '-A')
  git(w.bob, 'commit', '-q', '-m', 'local')
  const own = w.localMain(w.bob)
  const caught = await catchUpWithRemote(w.remoteOf(w.bob), new RefMainPublisher(w.bob, 'main'))
  assert.equal(caught.status, 'diverged')
  assert.equal(w.localMain(w.bob), own)
})

test('lane branches and recovery refs are pushed best effort; a failure is a warning', async () => {
  const w = await twoClones()
  await using _ = w.dir
  const db = openDatabaseFile(join(w.dir.path, 'sangam.db'))
  try {
    const lane = w.candidate(w.alice, 'a.txt')
    db.prepare(
      "INSERT INTO lane (name, branch, worktree, owner, state, created_at, updated_at) VALUES ('a.txt', 'lane/a.txt', ?, 'alice@example.com', 'idle', 0, 0)",
    ).run(w.alice)
    git(w.alice, 'update-ref', 'refs/sangam/backups/20261202-080000/a/manual', lane)
    assert.deepEqual(pushLaneRefs(db, w.remoteOf(w.alice)), [])
    assert.equal(git(w.bare, 'rev-parse', 'refs/heads/lane/a.txt'), lane)
    assert.equal(git(w.bare, 'rev-parse', 'refs/sangam/backups/20261202-080000/a/manual'), lane)
    git(w.alice, 'remote', 'set-url', 'origin', join(w.dir.path, 'gone.git'))
    const warnings = pushLaneRefs(db, w.remoteOf(w.alice))
    assert.equal(warnings.length, 1)
    assert.match(warnings[0] ?? '', /the next sangam sync tries again/)
  } finally {
    db.close()
  }
})

test("a refused publish says the hook's and the remote's own words, not git's summary", async () => {
  const w = await twoClones()
  await using _ = w.dir
  const from = w.localMain(w.alice)
  const to = w.candidate(w.alice, 'a.txt')
  // This machine's pre-push gate refuses (as sangam's lease gate does, in its own words).
  const prePush = join(w.alice, '.git', 'hooks', 'pre-push')
  writeFileSync(
    prePush,
    '#!/bin/sh\necho "sangam: push refused: it changes files leased by someone else:" >&2\necho "  a.txt: bob@x.dev, until 16:29" >&2\nexit 1\n',
    { mode: 0o755 },
  )
  await assert.rejects(w.publisher(w.alice).publish({ from, to }), (error: unknown) => {
    assert.ok(isSangamError(error) && error.code === 'GIT_FAILED')
    assert.match(
      error.message,
      /git push said:\n {2}sangam: push refused: it changes files leased by someone else:\n {4}a\.txt: bob@x\.dev/,
    )
    assert.doesNotMatch(error.message, /failed to push some refs/)
    return true
  })
  // The remote refuses (a server-side hook): its `remote:` lines and the ref's reason are said.
  rmSync(prePush)
  writeFileSync(join(w.bare, 'hooks', 'pre-receive'), '#!/bin/sh\necho "main needs a review" >&2\nexit 1\n', {
    mode: 0o755,
  })
  await assert.rejects(w.publisher(w.alice).publish({ from, to }), (error: unknown) => {
    assert.ok(isSangamError(error))
    assert.match(error.message, /remote: main needs a review/)
    assert.match(error.message, /main: remote rejected \(pre-receive hook declined\)/)
    return true
  })
  assert.equal(w.localMain(w.alice), from)
})
