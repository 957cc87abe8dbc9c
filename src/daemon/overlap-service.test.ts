import assert from 'node:assert/strict'
import { realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { samples } from '../../test/helpers/secret-samples.ts'
import { git, tmpDir, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../project/store/project-database.ts'
import type { OverlapRoundResult } from '../room/services/overlap-round.ts'
import { readMessages } from '../room/services/read.ts'
import { closeThread, listThreads } from '../room/services/threads.ts'
import { readOverlaps } from '../room/store/overlap-table.ts'
import { ManualClock } from '../shared/clock.ts'
import { silentLogger } from '../shared/logger.ts'
import { systemRandom } from '../shared/random.ts'
import { OverlapService } from './overlap-service.ts'

const base = 'export const a = 1\nexport const b = 2\n'

async function world() {
  const data = tmpDir()
  const repo = tmpGitRepo({ commit: true })
  repo.write('src/shared.ts', base)
  repo.commit('base')
  const outside = realpathSync(join(repo.path, '..'))
  const one = join(outside, 'one')
  const two = join(outside, 'two')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'one', one)
  git(repo.path, 'worktree', 'add', '-q', '-b', 'two', two)
  const file = join(data.path, 'sangam.db')
  const db = openDatabaseFile(file)
  const clock = new ManualClock(Date.parse('2026-12-02T04:00:00Z'))
  /** Runs the daemon's service for one round, as a fresh daemon would (its own connection). */
  const round = async (): Promise<OverlapRoundResult> => {
    let result: OverlapRoundResult | null = null
    const service = new OverlapService({
      openDb: () => openDatabaseFile(file),
      cwd: repo.path,
      commonDir: realpathSync(join(repo.path, '.git')),
      machine: 'm_0000000000000000',
      human: 'asha@example.com',
      clock,
      random: systemRandom,
      log: silentLogger,
      intervalMs: 60_000,
      onRound: (r) => {
        result = r
        void service.stop()
      },
    })
    await service.run()
    clock.advance(15_000)
    assert.ok(result !== null, 'a round ran')
    return result
  }
  const edit = (worktree: string, text: string) => writeFileSync(join(worktree, 'src/shared.ts'), text)
  const readyThreads = () => listThreads(db, { all: true }).filter((thread) => thread.source === 'ready')
  return {
    repo,
    one,
    two,
    db,
    clock,
    round,
    edit,
    readyThreads,
    [Symbol.asyncDispose]: async () => {
      db.close()
      await repo[Symbol.asyncDispose]()
      await data[Symbol.asyncDispose]()
    },
  }
}

test('two worktrees editing the same lines uncommitted: a conflicted overlap row each way and one thread; a restart opens no second; fixing it closes it', async () => {
  await using w = await world()
  w.edit(w.one, 'export const a = 10\nexport const b = 2\n')
  w.edit(w.two, 'export const a = 20\nexport const b = 2\n')
  const first = await w.round()
  assert.deepEqual(first.threads.closed, [])
  assert.equal(first.threads.opened.length, 1)
  assert.deepEqual(
    readOverlaps(w.db).map((row) => [
      row.worktree,
      row.path,
      row.otherWorktree,
      row.otherBranch,
      row.conflicted,
    ]),
    [
      [w.one, 'src/shared.ts', w.two, 'two', true],
      [w.two, 'src/shared.ts', w.one, 'one', true],
    ],
  )
  const [thread] = w.readyThreads()
  assert.ok(thread !== undefined)
  assert.deepEqual(
    [thread.title, thread.status, thread.audience, thread.participants, thread.paths],
    ['Merge conflict: src/shared.ts', 'open', 'agents', ['#one', '#two'], ['src/shared.ts']],
  )
  const posts = readMessages(w.db, { after: null, limit: 50 }).filter((m) => m.threadId === thread.id)
  assert.equal(posts.length, 1)
  assert.equal(posts[0]?.sender, 'ready')
  assert.deepEqual(posts[0]?.recipients, ['#one', '#two'])
  assert.match(posts[0]?.text ?? '', /^#one #two these worktrees conflict on `src\/shared\.ts`/)

  // A restarted daemon (new service, new connection) finds the thread it opened.
  const again = await w.round()
  assert.deepEqual(again.threads, { opened: [], closed: [], failed: [] })
  assert.equal(w.readyThreads().length, 1)
  assert.equal(readMessages(w.db, { after: null, limit: 50 }).length, 1)

  // The same change on both sides merges cleanly: still an overlap, no longer a conflict.
  w.edit(w.two, 'export const a = 10\nexport const b = 2\n')
  const fixed = await w.round()
  assert.deepEqual(fixed.threads, { opened: [], closed: [thread.id], failed: [] })
  assert.equal(w.readyThreads()[0]?.status, 'closed')
  assert.deepEqual(
    readOverlaps(w.db).map((row) => [row.worktree, row.conflicted]),
    [
      [w.one, false],
      [w.two, false],
    ],
  )
})

test('a conflict thread closed by hand stays closed for those commits; a new commit in a lane opens a new one', async () => {
  await using w = await world()
  w.edit(w.one, 'export const a = 10\nexport const b = 2\n')
  w.edit(w.two, 'export const a = 20\nexport const b = 2\n')
  const [opened] = (await w.round()).threads.opened
  assert.ok(opened !== undefined)
  const human = {
    sender: 'asha@example.com',
    actor: { human: 'asha@example.com', vendor: null, sessionId: null },
    author: 'human' as const,
    git: { worktree: null, branch: null, head: null },
  }
  closeThread({ db: w.db, clock: w.clock, poster: human }, opened)
  assert.deepEqual((await w.round()).threads, { opened: [], closed: [], failed: [] })
  // Committing is a new commit for that lane: the acknowledgement was for the old pair.
  git(w.two, 'commit', '-qam', 'two: a = 20')
  const reopened = await w.round()
  assert.equal(reopened.threads.opened.length, 1)
  assert.notEqual(reopened.threads.opened[0], opened)
  assert.deepEqual(
    w
      .readyThreads()
      .map((thread) => thread.status)
      .sort(),
    ['closed', 'open'],
  )
})

test('a conflict set the room refuses (a secret in a path) is skipped with its reason; the others still get their threads', async () => {
  await using w = await world()
  const secretPath = `${samples.github[0]}.txt`
  writeFileSync(join(w.repo.path, secretPath), 'x\n')
  git(w.repo.path, 'add', secretPath)
  git(w.repo.path, 'commit', '-qm', 'an unlucky file name')
  const three = join(w.repo.path, '..', 'three')
  git(w.repo.path, 'worktree', 'add', '-q', '-b', 'three', three)
  // one and two conflict on the shared file; one and three on the unlucky name (one of them
  // on a branch made before it existed would add it: here both edit it from main).
  git(w.one, 'merge', '-q', '--ff-only', 'main')
  w.edit(w.one, 'export const a = 10\nexport const b = 2\n')
  w.edit(w.two, 'export const a = 20\nexport const b = 2\n')
  writeFileSync(join(w.one, secretPath), 'one\n')
  writeFileSync(join(three, secretPath), 'three\n')
  const result = await w.round()
  assert.equal(result.threads.opened.length, 1)
  assert.equal(result.threads.failed.length, 1)
  assert.match(result.threads.failed[0]?.message ?? '', /github-token/)
  assert.deepEqual(
    w.readyThreads().map((thread) => thread.title),
    ['Merge conflict: src/shared.ts'],
  )
})

test('a nudge starts the next round at once, even one that arrives while a round runs', async () => {
  await using w = await world()
  const file = join(w.repo.path, '..', 'nudge.db')
  let rounds = 0
  const service = new OverlapService({
    openDb: () => openDatabaseFile(file),
    cwd: w.repo.path,
    commonDir: realpathSync(join(w.repo.path, '.git')),
    machine: 'm_0000000000000000',
    human: 'asha@example.com',
    clock: w.clock,
    random: systemRandom,
    log: silentLogger,
    // An hour between rounds: only the nudges can start the second and third.
    intervalMs: 3_600_000,
    onRound: () => {
      rounds += 1
      // Nudged during the first round (as a state arriving mid-round would): the second follows.
      if (rounds === 1) service.nudge()
      else if (rounds === 3) void service.stop()
    },
  })
  const running = service.run()
  for (let waited = 0; rounds < 2 && waited < 20_000; waited += 50)
    await new Promise((r) => setTimeout(r, 50))
  assert.equal(rounds, 2, 'the nudge during the first round was kept')
  // Now asleep for an hour: a nudge wakes it.
  service.nudge()
  await running
  assert.equal(rounds, 3)
})
