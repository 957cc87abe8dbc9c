import assert from 'node:assert/strict'
import { realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { samples } from '../../../test/helpers/secret-samples.ts'
import { git, tmpDir, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { acknowledgeRecords, queuedRecords } from '../../records/store/record-outbox.ts'
import { ManualClock } from '../../shared/clock.ts'
import { systemRandom } from '../../shared/random.ts'
import type { Db } from '../../store/db.ts'
import { syncedRecordSchema } from '../../sync/protocol/record.ts'
import { recordAppliers } from '../../sync/store/record-appliers.ts'
import { overlapsAt } from '../store/overlap-table.ts'
import { readWorktreeState } from '../store/worktree-state-table.ts'
import { type OverlapRoundResult, overlapRound } from './overlap-round.ts'
import { loadTargets } from './targets.ts'
import { listThreads } from './threads.ts'

const original = Array.from({ length: 12 }, (_, i) => `export const v${i + 1} = ${i + 1}`).join('\n')

/** One machine: its own clone of the team's repository, a lane worktree and its own data dir. */
function machine(origin: string, id: string, clock: ManualClock) {
  const data = tmpDir()
  const root = realpathSync(data.path)
  const clone = join(root, 'clone')
  git(root, 'clone', '-q', origin, clone)
  const lane = join(root, `lane-${id}`)
  git(clone, 'worktree', 'add', '-q', '-b', `lane-${id}`, lane)
  const db = openDatabaseFile(join(root, 'sangam.db'))
  return {
    id,
    db,
    lane,
    edit: (edit: (lines: string[]) => void) => {
      const lines = original.split('\n')
      edit(lines)
      writeFileSync(join(lane, 'src/shared.ts'), `${lines.join('\n')}\n`)
    },
    round: (): Promise<OverlapRoundResult> =>
      overlapRound({
        db,
        cwd: clone,
        clock,
        random: systemRandom,
        human: `${id}@example.com`,
        commonDir: join(clone, '.git'),
        machine: id,
      }),
    readyThreads: () => listThreads(db, { all: true }).filter((thread) => thread.source === 'ready'),
    [Symbol.asyncDispose]: async () => {
      db.close()
      await data[Symbol.asyncDispose]()
    },
  }
}

/** The team's repository (one file of twelve lines) and two machines that cloned it, m_a and m_b. */
function machines() {
  const origin = tmpGitRepo()
  origin.write('src/shared.ts', `${original}\n`)
  origin.commit('base')
  const clock = new ManualClock(Date.parse('2026-12-02T05:00:00Z'))
  const a = machine(origin.path, 'm_a', clock)
  const b = machine(origin.path, 'm_b', clock)
  return {
    a,
    b,
    clock,
    [Symbol.asyncDispose]: async () => {
      await b[Symbol.asyncDispose]()
      await a[Symbol.asyncDispose]()
      await origin[Symbol.asyncDispose]()
    },
  }
}

let gseq = 0
/** The team server's part, in one step: what `from` queued, stamped and applied on `to`. */
function relay(from: Db, to: Db): number {
  const queued = queuedRecords(from, 1000)
  for (const entry of queued) {
    gseq += 1
    const record = syncedRecordSchema.parse({
      ...(entry.draft as object),
      gseq,
      receivedAt: new Date().toISOString(),
    })
    const applier = recordAppliers[record.type].open(to) as { apply(record: unknown, at: number): boolean }
    to.transaction(() => applier.apply(record, 0))()
  }
  acknowledgeRecords(
    from,
    queued.map((entry) => ({ id: entry.id, seq: entry.seq })),
  )
  return queued.length
}

test('two machines editing the same lines uncommitted: one conflict thread, opened by the first machine id and seen on both; fixing it closes it', async () => {
  await using team = machines()
  const { a, b, clock } = team
  a.edit((lines) => lines.splice(3, 1, 'export const v4 = 40'))
  b.edit((lines) => lines.splice(4, 1, 'export const v5 = 50'))

  const firstA = await a.round()
  assert.ok(firstA.published >= 2, 'A shares its two worktrees')
  relay(a.db, b.db)
  const firstB = await b.round()
  assert.equal(firstB.remoteRows, 1)
  assert.deepEqual(firstB.threads.opened, [], 'm_b leaves the thread to m_a, whose id sorts first')
  const [rowOnB] = overlapsAt(b.db, b.lane, 'src/shared.ts')
  assert.equal(rowOnB?.otherWorktree, `m_a:${a.lane}`)
  assert.equal(rowOnB?.otherBranch, 'lane-m_a')
  assert.equal(rowOnB?.conflicted, true, 'adjacent lines 4 and 5 of the same base conflict')

  // `targets` on B shows A's lane from A's shared state, not nulls.
  const onB = await loadTargets(b.db, { machine: 'm_b', worktrees: [b.lane], now: clock.now() })
  const remoteLane = onB.worktrees.find((worktree) => worktree.machine === 'm_a' && worktree.path === a.lane)
  assert.equal(remoteLane?.branch, 'lane-m_a')
  assert.equal(remoteLane?.uncommitted, 1)
  assert.equal(typeof remoteLane?.ageDays, 'number')

  relay(b.db, a.db)
  const secondA = await a.round()
  assert.equal(secondA.threads.opened.length, 1)
  assert.equal(overlapsAt(a.db, a.lane, 'src/shared.ts')[0]?.otherWorktree, `m_b:${b.lane}`)
  relay(a.db, b.db)
  assert.deepEqual(
    b.readyThreads().map((thread) => [thread.title, thread.status]),
    [['Merge conflict: src/shared.ts', 'open']],
    'the one thread is on B too',
  )
  assert.equal((await b.round()).threads.opened.length, 0)
  const thirdA = await a.round()
  assert.equal(thirdA.threads.opened.length, 0, 'a second round opens no second thread')
  assert.equal(thirdA.published, 0, 'an unchanged state is not queued again')

  // B moves its edit away from A's lines: a path collision only, and the thread closes.
  b.edit((lines) => lines.splice(10, 1, 'export const v11 = 110'))
  const fixedB = await b.round()
  assert.equal(fixedB.published, 1)
  relay(b.db, a.db)
  const fixedA = await a.round()
  assert.equal(fixedA.threads.closed.length, 1)
  assert.equal(overlapsAt(a.db, a.lane, 'src/shared.ts')[0]?.conflicted, false)
  relay(a.db, b.db)
  assert.deepEqual(
    b.readyThreads().map((thread) => thread.status),
    ['closed'],
  )
})

test('a worktree removed from its machine is shared as missing and leaves the other machine’s picture', async () => {
  await using team = machines()
  const { a, b } = team
  a.edit((lines) => lines.splice(3, 1, 'export const v4 = 40'))
  b.edit((lines) => lines.splice(3, 1, 'export const v4 = 41'))
  await a.round()
  relay(a.db, b.db)
  assert.equal((await b.round()).remoteRows, 1)
  git(join(a.lane, '..', 'clone'), 'worktree', 'remove', '--force', a.lane)
  assert.equal((await a.round()).published, 1, 'the lane, as missing')
  relay(a.db, b.db)
  assert.equal((await b.round()).remoteRows, 0)
  assert.deepEqual(overlapsAt(b.db, b.lane, 'src/shared.ts'), [])
})

test('a changed path the secret scrubber flags is not shared; the other paths are', async () => {
  await using team = machines()
  const { a, b } = team
  a.edit((lines) => lines.splice(3, 1, 'export const v4 = 40'))
  const secretPath = `${samples.github[0]}.txt`
  writeFileSync(join(a.lane, secretPath), 'x\n')
  await a.round()
  const shared = JSON.stringify(queuedRecords(a.db, 1000).map((entry) => entry.draft))
  assert.equal(shared.includes(samples.github[0] ?? '-'), false, 'the secret never leaves A')
  relay(a.db, b.db)
  const lane = readWorktreeState(b.db, 'm_a', a.lane)
  assert.deepEqual(
    lane?.changes.map((change) => change.path),
    ['src/shared.ts'],
  )
})

test('past 500 changed paths a state lists the first 500 and says it is truncated', async () => {
  await using team = machines()
  const { a } = team
  for (let i = 0; i < 502; i += 1) writeFileSync(join(a.lane, `new-${String(i).padStart(3, '0')}.txt`), 'n\n')
  await a.round()
  const lane = readWorktreeState(a.db, 'm_a', a.lane)
  assert.equal(lane?.changes.length, 500)
  assert.equal(lane?.truncated, true)
  assert.equal(lane?.uncommitted, 502)
})
