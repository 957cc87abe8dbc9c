/**
 * `sangam ready` for 20 lanes (linked worktrees, each with a committed change and an uncommitted
 * one) in a repository of 300 files: cold (the merge memo emptied before each run) and warm (the
 * memo from the run before). Every lane edits one shared file (different lines, so those merges
 * are clean) and one of five group files (the same line, so lanes of a group conflict): all 190
 * pairs are nominated and merged, plus the 20 merges into main. Prints median and p95 wall time;
 * the target is cold < 400 ms. Beside it the chat-room peer's `ready` when `SANGAM_BENCH_PEER`
 * names its executable; otherwise the CEO-side peer figure from the issue, labelled as such. Then
 * `ready` right after a daemon round (its kept working states) against `ready` without them, as
 * a ratio.
 *
 *   npm run build && node --import tsx bench/room-ready.ts [runs]
 */
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { overlapRound } from '../src/room/services/overlap-round.ts'
import { ready as readyService } from '../src/room/services/ready.ts'
import { ManualClock } from '../src/shared/clock.ts'
import { systemRandom } from '../src/shared/random.ts'
import { openConnection } from '../src/store/connection.ts'
import { gitCallLog } from '../test/helpers/git-call-log.ts'
import { benchScratch } from './helpers/bench-scratch.ts'
import { numberedLines, writeSourceTree } from './helpers/merge-fixture.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 9)
const laneCount = 20
const groups = 5
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')
const peer = process.env.SANGAM_BENCH_PEER
/** The figure for chat-room's cold `ready` on the CEO's machine (not measured here). */
const ceoPeerColdMs = 1905

const { dir, run } = benchScratch('ready', { gitIdentity: true })

try {
  const repo = join(dir, 'repo')
  run('git', ['init', '-q', '-b', 'main', repo], dir)
  writeSourceTree(repo)
  writeFileSync(join(repo, 'common.ts'), numberedLines(laneCount * 10, 'c'))
  for (let g = 0; g < groups; g += 1) writeFileSync(join(repo, `group-${g}.ts`), numberedLines(20, 'g'))
  run('git', ['add', '-A'], repo)
  run('git', ['commit', '-q', '-m', 'base'], repo)
  for (let i = 0; i < laneCount; i += 1) {
    const path = join(dir, `lane-${i}`)
    run('git', ['worktree', 'add', '-q', path, '-b', `lane-${i}`], repo)
    const group = numberedLines(20, 'g').replace('export const g0 = 0\n', `export const g0 = ${100 + i}\n`)
    writeFileSync(join(path, `group-${i % groups}.ts`), group)
    run('git', ['commit', '-q', '-am', `lane ${i}`], path)
    // Uncommitted: its own line of the shared file, ten lines from the next lane's.
    const common = numberedLines(laneCount * 10, 'c').replace(
      `export const c${i * 10} = ${i * 10}\n`,
      `export const c${i * 10} = -1\n`,
    )
    writeFileSync(join(path, 'common.ts'), common)
    writeFileSync(join(path, `notes-${i}.md`), 'draft\n')
  }
  // As in a worktree in use: its index written after its files' last change (a checkout just
  // made has every entry "racy", which git re-reads on every `add` until the index is rewritten).
  await new Promise((resolve) => setTimeout(resolve, 1100))
  for (let i = 0; i < laneCount; i += 1)
    run('git', ['update-index', '-q', '--refresh'], join(dir, `lane-${i}`))
  const init = JSON.parse(run(process.execPath, [cli, 'init', '--no-mcp', '--json'], repo)) as {
    database: string
  }
  const emptyMemo = () => {
    const db = openConnection(init.database, { timeoutMs: 5000 })
    db.prepare('DELETE FROM ready_memo').run()
    db.close()
  }
  const ready = () =>
    JSON.parse(run(process.execPath, [cli, 'ready', '--json'], repo)) as {
      clean: number
      latent: number
      conflicted: number
      pairsProbed: number
      merged: number
      branches: unknown[]
    }
  const first = ready() // also warms the page cache and writes the working-state objects once
  if (first.branches.length !== laneCount || first.pairsProbed !== (laneCount * (laneCount - 1)) / 2)
    throw new Error(`ready saw ${first.branches.length} lanes, ${first.pairsProbed} pairs`)
  const time = (before: () => void): { times: number[]; merged: number } => {
    const times: number[] = []
    let merged = 0
    for (let i = 0; i < runs; i += 1) {
      before()
      const started = performance.now()
      merged = ready().merged
      times.push(performance.now() - started)
    }
    return { times: times.sort((a, b) => a - b), merged }
  }
  const cold = time(emptyMemo)
  const warm = time(() => undefined)
  const coldP50 = percentile(cold.times, 50)
  process.stdout.write(
    `sangam ready, ${laneCount} lanes (committed + uncommitted), ${first.pairsProbed} pairs (clean ${first.clean}, latent ${first.latent}, conflicted ${first.conflicted}):\n` +
      `  cold (empty memo, ${cold.merged} merges): median ${coldP50.toFixed(0)} ms, p95 ${percentile(cold.times, 95).toFixed(0)} ms over ${runs} runs (target < 400 ms: ${coldP50 < 400 ? 'met' : 'missed'})\n` +
      `  warm (${warm.merged} merges): median ${percentile(warm.times, 50).toFixed(0)} ms, p95 ${percentile(warm.times, 95).toFixed(0)} ms over ${runs} runs\n`,
  )

  // The daemon's round on the same lanes (the main worktree's lane too), in this process: what
  // `sangam up` spends every 15 s once the memo is warm. Wall time and this process's CPU time.
  {
    const db = openDatabaseFile(init.database)
    const clock = new ManualClock(Date.now())
    const roundInput = {
      db,
      cwd: repo,
      commonDir: join(repo, '.git'),
      machine: 'm_0000000000000000',
      human: 'bench',
      clock,
      random: systemRandom,
    }
    const first = await overlapRound(roundInput)
    const walls: number[] = []
    const cpus: number[] = []
    for (let i = 0; i < runs; i += 1) {
      clock.advance(15_000)
      const cpu = process.cpuUsage()
      const started = performance.now()
      await overlapRound(roundInput)
      walls.push(performance.now() - started)
      const used = process.cpuUsage(cpu)
      cpus.push((used.user + used.system) / 1000)
    }
    db.close()
    walls.sort((a, b) => a - b)
    cpus.sort((a, b) => a - b)
    process.stdout.write(
      `daemon overlap round, ${first.lanes} lanes, warm: median ${percentile(walls, 50).toFixed(0)} ms wall, ${percentile(cpus, 50).toFixed(0)} ms CPU in the daemon (git's own CPU not counted); ${first.rows} overlap rows, ${first.threads.opened.length} conflict threads opened\n`,
    )
  }

  // `ready` right after the daemon's round on the same 20 dirty lanes, against `ready` without the
  // working states a round keeps (what it did before D422): both with the merge memo warm, in this
  // process (the service, not the CLI's start), interleaved run by run. Before each run with the
  // round's states, the kept states are emptied and a round fills them again (not timed).
  {
    const db = openDatabaseFile(init.database)
    const clock = new ManualClock(Date.now())
    const machine = 'm_0000000000000000'
    const dropKept = () => db.prepare("DELETE FROM ready_memo WHERE left LIKE 'state:%'").run()
    const gitCounted = async (body: () => Promise<unknown>): Promise<{ ms: number; git: number }> => {
      const log = gitCallLog(dir)
      const saved = process.env.PATH
      process.env.PATH = log.path
      try {
        const started = performance.now()
        await body()
        return { ms: performance.now() - started, git: log.calls().length }
      } finally {
        process.env.PATH = saved
      }
    }
    const withRound: number[] = []
    const without: number[] = []
    let gitWith = 0
    let gitWithout = 0
    let daemonSource = ''
    for (let i = 0; i < runs; i += 1) {
      clock.advance(15_000)
      dropKept()
      await overlapRound({
        db,
        cwd: repo,
        commonDir: join(repo, '.git'),
        machine,
        human: 'bench',
        clock,
        random: systemRandom,
      })
      const daemon = { at: clock.now(), machine }
      clock.advance(1_000)
      const kept = await gitCounted(async () => {
        daemonSource = (await readyService(db, repo, null, { now: clock.now(), daemon })).states.source
      })
      withRound.push(kept.ms)
      gitWith = kept.git
      dropKept()
      clock.advance(1_000)
      const recomputed = await gitCounted(() => readyService(db, repo, null, { now: clock.now() }))
      without.push(recomputed.ms)
      gitWithout = recomputed.git
    }
    db.close()
    withRound.sort((a, b) => a - b)
    without.sort((a, b) => a - b)
    const keptP50 = percentile(withRound, 50)
    const withoutP50 = percentile(without, 50)
    process.stdout.write(
      `ready after the daemon's round (states from ${daemonSource}), ${laneCount} dirty lanes, warm merges, in-process: median ${keptP50.toFixed(0)} ms, p95 ${percentile(withRound, 95).toFixed(0)} ms, ${gitWith} git processes\n` +
        `ready without the round's kept states (every dirty lane through a temporary index): median ${withoutP50.toFixed(0)} ms, p95 ${percentile(without, 95).toFixed(0)} ms, ${gitWithout} git processes\n` +
        `ratio with round / without: ${(keptP50 / withoutP50).toFixed(2)}× (measured in this run, interleaved, ${runs} runs each)\n`,
    )
  }

  const peerRuns = peer !== undefined && existsSync(peer) && spawnSync(peer, ['--version']).status === 0
  if (peerRuns) {
    const peerData = join(dir, 'peer')
    const theirs: number[] = []
    for (let i = 0; i < runs; i += 1) {
      rmSync(peerData, { recursive: true, force: true }) // cold: a fresh data dir has no memo
      const started = performance.now()
      run(peer, ['--data-dir', peerData, 'ready', '--cwd', repo, '--into', 'main'], repo)
      theirs.push(performance.now() - started)
    }
    theirs.sort((a, b) => a - b)
    const peerP50 = percentile(theirs, 50)
    process.stdout.write(
      `chat-room ready (${peer}), same repository, cold: median ${peerP50.toFixed(0)} ms, p95 ${percentile(theirs, 95).toFixed(0)} ms\n` +
        `ratio sangam / chat-room, cold: ${(coldP50 / peerP50).toFixed(2)}× (measured in this run)\n`,
    )
  } else {
    process.stdout.write(
      `peer not measured (SANGAM_BENCH_PEER unset or not runnable); the issue's CEO-side figure for chat-room ready, cold, 20 branches: ${ceoPeerColdMs} ms (another machine)\n` +
        `ratio sangam cold / CEO-side peer figure: ${(coldP50 / ceoPeerColdMs).toFixed(2)}× (different machines: indicative only)\n`,
    )
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
