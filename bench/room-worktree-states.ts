/**
 * What sharing worktree states adds to the daemon's overlap round: for a checkout with `lanes`
 * worktrees (each with 20 files edited uncommitted), the time of `localWorktreeStates` (per
 * worktree: a merge-base, the commit time, and two `git diff`s from the base to the working state)
 * beside the whole round, and the pure prediction for `lanes` local against 3×`lanes` remote states
 * of 500 paths each. Prints medians.
 *
 *   node --import tsx bench/room-worktree-states.ts [lanes] [samples]
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { worktreeHeads } from '../src/git/worktree-heads.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { crossMachinePicture } from '../src/room/core/cross-machine-overlap.ts'
import type { WorktreeStatePayload } from '../src/room/protocol/worktree.ts'
import { overlapRound } from '../src/room/services/overlap-round.ts'
import { laneAnswers, resolveTarget } from '../src/room/services/ready.ts'
import { localWorktreeStates } from '../src/room/services/worktree-states.ts'
import { systemClock } from '../src/shared/clock.ts'
import { systemRandom } from '../src/shared/random.ts'
import { git, tmpGitRepo } from '../test/helpers/tmp-git-repo.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const lanes = Number(process.argv[2] ?? 8)
const samples = Number(process.argv[3] ?? 5)

await using repo = tmpGitRepo()
const text = Array.from({ length: 200 }, (_, i) => `export const v${i} = ${i}`).join('\n')
for (let f = 0; f < 40; f += 1) repo.write(`src/f${f}.ts`, `${text}\n`)
repo.commit('base')
const paths: string[] = []
for (let l = 0; l < lanes; l += 1) {
  const path = join(repo.path, '..', `lane-${l}`)
  git(repo.path, 'worktree', 'add', '-q', '-b', `lane-${l}`, path)
  for (let f = l; f < l + 20; f += 1) {
    const lines = text.split('\n')
    lines[(l * 7) % 200] = `export const changed = ${l}`
    writeFileSync(join(path, `src/f${f % 40}.ts`), `${lines.join('\n')}\n`)
  }
  paths.push(path)
}
const db = openDatabaseFile(join(repo.path, '..', 'sangam.db'))
const target = resolveTarget(repo.path, null)
const commonDir = join(repo.path, '.git')

const baseMemo = new Map()
/** One daemon round of this machine; the warm one adds the merge-base memo kept between rounds. */
const round = {
  db,
  cwd: repo.path,
  clock: systemClock,
  random: systemRandom,
  human: 'b@x.dev',
  commonDir,
  machine: 'm_a',
}
const roundMs: number[] = []
const warmMs: number[] = []
const statesMs: number[] = []
for (let i = -1; i < samples; i += 1) {
  const startRound = performance.now()
  await overlapRound(round)
  const roundEnd = performance.now()
  await overlapRound({ ...round, baseMemo })
  const warmEnd = performance.now()
  const answers = await laneAnswers(db, repo.path, target, { excludeTarget: false, now: Date.now() })
  const heads = new Map(worktreeHeads(repo.path).map((head) => [head.path, head.head]))
  const startStates = performance.now()
  await localWorktreeStates(
    answers.lanes.map((lane) => ({ lane, head: heads.get(lane.worktree) ?? null })),
    { cwd: repo.path, machine: 'm_a', main: target.commit, targets: new Map(), concurrency: 4 },
    Date.now(),
  )
  const statesEnd = performance.now()
  if (i >= 0) {
    roundMs.push(roundEnd - startRound)
    warmMs.push(warmEnd - roundEnd)
    statesMs.push(statesEnd - startStates)
  }
}

const remote: WorktreeStatePayload[] = Array.from({ length: lanes * 3 }, (_, r) => ({
  machine: `m_r${r}`,
  path: `/remote/${r}`,
  status: 'present',
  target: null,
  branch: null,
  head: null,
  base: target.commit,
  lastCommitAt: null,
  uncommitted: 500,
  changes: Array.from({ length: 500 }, (_, p) => ({ path: `src/p${p}.ts`, ranges: [[r, r + 3]] })),
  truncated: false,
  updatedAt: 1,
}))
const local = remote
  .slice(0, lanes)
  .map((state, l) => ({ state: { ...state, machine: 'm_a', path: `/l/${l}` }, commit: 'x' }))
const pureMs: number[] = []
for (let i = 0; i < samples; i += 1) {
  const started = performance.now()
  crossMachinePicture('m_a', local, remote, 0)
  pureMs.push(performance.now() - started)
}
db.close()
const fmt = (values: number[]) =>
  `median ${percentile(
    [...values].sort((x, y) => x - y),
    50,
  ).toFixed(0)} ms`
process.stdout.write(
  [
    `overlap round, ${lanes + 1} worktrees (states shared): ${fmt(roundMs)}`,
    `  of which worktree states (git): ${fmt(statesMs)}`,
    `overlap round, the daemon's (base changes memoised): ${fmt(warmMs)}`,
    `prediction, ${lanes} local × ${lanes * 3} remote × 500 paths: ${fmt(pureMs)}`,
    '',
  ].join('\n'),
)
