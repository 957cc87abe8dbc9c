import assert from 'node:assert/strict'
import { test } from 'node:test'
import { conflictKey, conflictTitle, planConflictThreads } from './conflict-thread-plan.ts'
import { conflictGroups, overlapPicture } from './overlap-picture.ts'
import { type MergeAnswer, nominatedPairs, pairKey, type ReadyLane, readyVerdict } from './ready-verdict.ts'

const lane = (name: string, touched: string[], extra: Partial<ReadyLane> = {}): ReadyLane => ({
  worktree: `/w/${name}`,
  branch: name,
  commit: `c-${name}`,
  uncommitted: 0,
  touched,
  skipped: null,
  ...extra,
})
const clean: MergeAnswer = { clean: true, conflicts: [], error: null }
const conflict = (...paths: string[]): MergeAnswer => ({ clean: false, conflicts: paths, error: null })

test('two lanes clean against the target but conflicting with each other are latent both ways; an unrelated one is clean', () => {
  const lanes = [lane('a', ['x.ts', 'a.ts']), lane('b', ['x.ts']), lane('c', ['c.ts'])]
  assert.deepEqual(nominatedPairs(lanes), [[0, 1]])
  const pairs = new Map([[pairKey(0, 1), conflict('x.ts')]])
  const verdict = readyVerdict('main', lanes, [clean, clean, clean], pairs)
  assert.deepEqual([verdict.clean, verdict.latent, verdict.conflicted, verdict.complete], [1, 2, 0, true])
  assert.deepEqual(
    verdict.branches.map((branch) => [branch.branch, branch.collidesWith.map((other) => other.branch)]),
    [
      ['a', ['b']],
      ['b', ['a']],
      ['c', []],
    ],
  )
  assert.deepEqual(verdict.branches[0]?.collidesWith[0]?.paths, ['x.ts'])
})

test('a lane that does not merge sorts first; skipped lanes last; an unanswered merge makes it incomplete', () => {
  const lanes = [
    lane('ok', ['o.ts']),
    lane('bad', ['m.ts']),
    lane('gone', [], { skipped: 'missing', commit: null, uncommitted: null }),
    lane('lone', ['l.ts']),
  ]
  const verdict = readyVerdict(
    'main',
    lanes,
    [clean, conflict('m.ts'), undefined, { clean: false, conflicts: [], error: 'unrelated histories' }],
    new Map(),
  )
  assert.deepEqual(
    verdict.branches.map((branch) => [branch.branch, branch.mergesCleanly, branch.skipped]),
    [
      ['bad', false, null],
      ['ok', true, null],
      ['gone', null, 'missing'],
      ['lone', null, 'unrelated'],
    ],
  )
  assert.equal(verdict.complete, false)
  assert.deepEqual(verdict.branches[0]?.conflicts, ['m.ts'])
})

test('every pair sharing a path is nominated, no cap', () => {
  const lanes = Array.from({ length: 40 }, (_, i) => lane(`l${i}`, ['shared.ts']))
  assert.equal(nominatedPairs(lanes).length, (40 * 39) / 2)
})

test('the overlap picture: a row each way per shared path, conflicted where the merge conflicts', () => {
  const lanes = [lane('a', ['x.ts', 'y.ts']), lane('b', ['x.ts', 'y.ts'])]
  const rows = overlapPicture(lanes, new Map([[pairKey(0, 1), conflict('x.ts')]]), 5)
  assert.deepEqual(
    rows.map((row) => [row.worktree, row.path, row.otherWorktree, row.otherBranch, row.conflicted]),
    [
      ['/w/a', 'x.ts', '/w/b', 'b', true],
      ['/w/a', 'y.ts', '/w/b', 'b', false],
      ['/w/b', 'x.ts', '/w/a', 'a', true],
      ['/w/b', 'y.ts', '/w/a', 'a', false],
    ],
  )
})

test('conflict groups and the thread plan: open once, keep, close when gone, an acknowledgement holds for its commits', () => {
  const lanes = [lane('a', ['x.ts', 'y.ts']), lane('b', ['x.ts', 'y.ts']), lane('c', ['x.ts'])]
  const pairs = new Map([
    [pairKey(0, 1), conflict('x.ts', 'y.ts')],
    [pairKey(0, 2), conflict('x.ts')],
    [pairKey(1, 2), clean],
  ])
  const groups = conflictGroups(lanes, pairs)
  assert.deepEqual(
    groups.map((group) => [group.worktrees, group.paths]),
    [
      [['/w/a', '/w/b'], ['y.ts']],
      [['/w/a', '/w/b', '/w/c'], ['x.ts']],
    ],
  )
  assert.equal(conflictTitle(['x.ts']), 'Merge conflict: x.ts')
  assert.equal(conflictTitle(['x.ts', 'y.ts']), 'Merge conflict: 2 files')
  const deep = `${'very/'.repeat(60)}deep.ts`
  const long = conflictTitle([deep])
  assert.equal(long.length, 200)
  assert.ok(long.startsWith('Merge conflict: …') && long.endsWith('/very/deep.ts'))
  const [ab] = groups
  assert.ok(ab !== undefined)
  const key = conflictKey(ab.worktrees)
  const known = (threadOpen: boolean | null, closedByReady: boolean, commits = ab.commits.join('\n')) => ({
    key,
    threadId: 'thr-1',
    threadOpen,
    commits,
    closedByReady,
  })
  assert.deepEqual(planConflictThreads([ab], []).open, [ab])
  assert.deepEqual(planConflictThreads([ab], [known(true, false)]), { open: [], close: [] })
  assert.deepEqual(planConflictThreads([], [known(true, false)]).close, [known(true, false)])
  assert.deepEqual(planConflictThreads([ab], [known(false, false)]), { open: [], close: [] })
  assert.deepEqual(planConflictThreads([ab], [known(false, false, 'older')]).open, [ab])
  assert.deepEqual(planConflictThreads([ab], [known(false, true)]).open, [ab])
  assert.deepEqual(planConflictThreads([ab], [known(null, false)]).open, [ab])
})
