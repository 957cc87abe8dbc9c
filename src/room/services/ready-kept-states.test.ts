import assert from 'node:assert/strict'
import { realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { gitCallLog } from '../../../test/helpers/git-call-log.ts'
import { git, tmpDir, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { systemRandom } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import { overlapRound } from './overlap-round.ts'
import { ready } from './ready.ts'

const machine = 'm_0000000000000000'
const shared = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n')

/** One time a minute ago (s): every file below is stamped with it, the rewrite after the round too. */
const then = Math.floor(Date.now() / 1000) - 60

/** A file stamped a minute ago, as a worktree's files are when a round reads them (not racy). */
function writeOld(path: string, text: string): void {
  writeFileSync(path, text)
  utimesSync(path, then, then)
}

/** The verdict without what differs by where the answers came from (memo hits, states' source). */
function verdictOf(answer: Awaited<ReturnType<typeof ready>>) {
  const { merged: _merged, states: _states, ...verdict } = answer
  return verdict
}

/** The git subcommands run while `body` ran in this process. */
async function gitCalls<T>(dir: string, body: () => Promise<T>): Promise<{ value: T; calls: string[] }> {
  const log = gitCallLog(dir)
  const saved = process.env.PATH
  process.env.PATH = log.path
  try {
    const value = await body()
    return { value, calls: log.calls().map((call) => call.find((arg) => !arg.startsWith('-')) ?? '') }
  } finally {
    process.env.PATH = saved
  }
}

test('ready takes the working states of dirty worktrees the daemon’s round kept, and reads again any changed since', async () => {
  await using repo = tmpGitRepo()
  await using data = tmpDir()
  const root = realpathSync(data.path)
  repo.write('shared.ts', `${shared}\n`)
  repo.write('other.ts', 'other\n')
  repo.commit('base')
  const lanes = ['one', 'two', 'three', 'four'].map((name) => {
    const path = join(root, name)
    git(repo.path, 'worktree', 'add', '-q', '-b', name, path)
    return path
  })
  const [one, two, three] = lanes as [string, string, string, string]
  // one: an unstaged edit of line 2 and an untracked file; two: a staged edit of line 2 (the two
  // collide); three: an edit of line 10 (latent with both); four: clean.
  writeOld(join(one, 'shared.ts'), `${shared.replace('line 2\n', 'line two (one)\n')}\n`)
  writeOld(join(one, 'notes.md'), 'draft\n')
  writeOld(join(two, 'shared.ts'), `${shared.replace('line 2\n', 'line two (two)\n')}\n`)
  git(two, 'add', 'shared.ts')
  writeOld(join(three, 'shared.ts'), `${shared.replace('line 10\n', 'line ten\n')}\n`)

  const clock = new ManualClock(Date.now())
  const db = openDatabaseFile(join(root, 'daemon.db'))
  // A recompute: a store that has never seen these worktrees.
  const recompute = async (): Promise<ReturnType<typeof verdictOf>> => {
    const freshPath = join(root, `fresh-${clock.now()}.db`)
    const fresh: Db = openDatabaseFile(freshPath)
    try {
      return verdictOf(await ready(fresh, repo.path, null, { now: clock.now() }))
    } finally {
      fresh.close()
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${freshPath}${suffix}`, { force: true })
    }
  }
  try {
    await overlapRound({
      db,
      cwd: repo.path,
      clock,
      random: systemRandom,
      human: 'dev@example.com',
      commonDir: join(repo.path, '.git'),
      machine,
    })
    const daemon = { at: clock.now(), machine }
    clock.advance(5_000)

    const kept = await gitCalls(root, () => ready(db, repo.path, null, { now: clock.now(), daemon }))
    assert.equal(kept.value.states.source, 'daemon')
    assert.equal(kept.calls.filter((name) => name === 'status').length, 3, 'one status per dirty worktree')
    assert.deepEqual(
      kept.calls.filter((name) => ['add', 'write-tree', 'commit-tree', 'diff-tree'].includes(name)),
      [],
      `no temporary index: ${kept.calls.join(' ')}`,
    )
    const before = await recompute()
    assert.deepEqual(verdictOf(kept.value), before)
    assert.deepEqual(
      before.branches
        .map((branch) => [branch.worktree, branch.uncommitted])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      [
        [join(root, 'four'), 0],
        [one, 2],
        [three, 1],
        [two, 1],
      ],
    )

    // Changed after the round, the same size and with the same mtime as before (only its ctime
    // moves): the kept state of `three` must not be used, nor that of `one` (a new file).
    writeOld(join(three, 'shared.ts'), `${shared.replace('line 2\n', 'line 2b\n')}\n`)
    writeOld(join(one, 'more.md'), 'more\n')
    clock.advance(5_000)
    const changed = await gitCalls(root, () => ready(db, repo.path, null, { now: clock.now(), daemon }))
    assert.equal(changed.calls.filter((name) => name === 'add').length, 2, changed.calls.join(' '))
    const after = await recompute()
    assert.deepEqual(verdictOf(changed.value), after)
    assert.notDeepEqual(after, before, 'the change shows')
    assert.equal(after.branches.find((branch) => branch.worktree === one)?.uncommitted, 3)

    // And the states read this time are kept in turn.
    const again = await gitCalls(root, () => ready(db, repo.path, null, { now: clock.now(), daemon }))
    assert.equal(again.calls.filter((name) => name === 'add').length, 0, again.calls.join(' '))
    assert.deepEqual(verdictOf(again.value), after)
  } finally {
    db.close()
  }
})

test('a worktree changed just before it is read is not kept: its next reading makes its state again', async () => {
  await using repo = tmpGitRepo()
  await using data = tmpDir()
  const root = realpathSync(data.path)
  const lane = join(root, 'lane')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane', lane)
  // Stamped after the reading starts (as a file written in the same tick would be): racy.
  writeFileSync(join(lane, 'work.txt'), 'now\n')
  const later = Date.now() / 1000 + 60
  utimesSync(join(lane, 'work.txt'), later, later)
  const db = openDatabaseFile(join(root, 'sangam.db'))
  try {
    const first = await gitCalls(root, () => ready(db, repo.path, null, { now: 1 }))
    const second = await gitCalls(root, () => ready(db, repo.path, null, { now: 2 }))
    assert.equal(first.calls.filter((name) => name === 'add').length, 1)
    assert.equal(second.calls.filter((name) => name === 'add').length, 1, 'read again, not taken')
    assert.deepEqual(verdictOf(second.value), verdictOf(first.value))
  } finally {
    db.close()
  }
})
