/**
 * `sangam board --json` with the board's lanes part: one project with 20 threads and 5 lanes (two
 * dirty, one with a commit not in main, one behind main), beside the same threads in a project
 * without lanes, in the same run. Prints median and p95 of each and their ratio (what the lanes
 * part costs), and `sangam status --json` on the lanes project for reference. With
 * `SANGAM_BENCH_BEFORE=<dist/cli/main.js of an older build>` (one without the lanes part) it also
 * times that build's board on both projects: before and after, same fixtures, same run.
 *
 *   npm run build && node --import tsx bench/board-lanes.ts [runs]
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { benchScratch } from './helpers/bench-scratch.ts'
import { openBenchThreads } from './helpers/bench-threads.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 15)
const threadCount = 20
const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js')
const before = process.env.SANGAM_BENCH_BEFORE

const { dir, env, run } = benchScratch('board-lanes', { user: 'bench@x.dev' })
const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'user.email=b@x', '-c', 'user.name=b', ...args], cwd)
/**
 * Times every command `runs` times, interleaved (one of each per round), so a machine whose load
 * drifts during the run weighs on all of them alike; each list comes back sorted.
 */
const timeInterleaved = (commands: readonly (() => void)[]): number[][] => {
  for (const once of commands) once() // warm the page cache
  const times = commands.map((): number[] => [])
  for (let i = 0; i < runs; i += 1)
    commands.forEach((once, index) => {
      const started = performance.now()
      once()
      times[index]?.push(performance.now() - started)
    })
  return times.map((list) => list.sort((a, b) => a - b))
}
const line = (what: string, times: readonly number[]) =>
  `${what}: median ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms over ${times.length} runs`

/** A repository with one commit, `sangam init` and the same 20 threads. */
function project(name: string): string {
  const repo = join(dir, name)
  run('git', ['init', '-q', '-b', 'main', repo], dir)
  mkdirSync(join(repo, 'src'))
  for (let i = 0; i < 20; i += 1)
    writeFileSync(join(repo, 'src', `part-${i}.ts`), `export const part = ${i}\n`)
  git(repo, 'add', '-A')
  git(repo, 'commit', '-q', '-m', 'init')
  run(process.execPath, [cli, 'init', '--no-mcp', '--json'], repo)
  openBenchThreads(env, repo, threadCount)
  return repo
}

try {
  const plain = project('plain')
  const laned = project('laned')
  const worktree = (lane: string) => join(laned, '.sangam', 'lanes', lane)
  for (const lane of ['a', 'b', 'c', 'd', 'e'])
    run(process.execPath, [cli, 'lane', lane, '--no-agent', '--json'], laned)
  writeFileSync(join(worktree('a'), 'src', 'part-1.ts'), 'export const part = "a"\n')
  writeFileSync(join(worktree('b'), 'new.txt'), 'b\n')
  writeFileSync(join(worktree('c'), 'src', 'part-3.ts'), 'export const part = "c"\n')
  git(worktree('c'), 'commit', '-q', '-am', 'c works')
  writeFileSync(join(worktree('d'), 'src', 'part-4.ts'), 'export const part = "d"\n')
  run(process.execPath, [cli, 'sync', '--json'], worktree('d')) // main moves: e and the others are behind

  const board = (entry: string, cwd: string) => () => run(process.execPath, [entry, 'board', '--json'], cwd)
  const older = before !== undefined && existsSync(before) ? before : null
  const [withoutLanes = [], withLanes = [], status = [], oldPlain = [], old = []] = timeInterleaved([
    board(cli, plain),
    board(cli, laned),
    () => run(process.execPath, [cli, 'status', '--json'], laned),
    ...(older === null ? [] : [board(older, plain), board(older, laned)]),
  ])
  const median = (times: readonly number[]) => percentile(times, 50)
  process.stdout.write(
    `${line(`sangam board, ${threadCount} threads, no lanes`, withoutLanes)}\n` +
      `${line(`sangam board, ${threadCount} threads, 5 lanes`, withLanes)}\n` +
      `${line('sangam status, 5 lanes (reference)', status)}\n` +
      `ratio 5 lanes / no lanes (this build, this run): ${(median(withLanes) / median(withoutLanes)).toFixed(2)}×\n`,
  )
  if (older !== null)
    process.stdout.write(
      `${line(`sangam board before the lanes part (${older}), no lanes`, oldPlain)}\n` +
        `${line('sangam board before the lanes part, 5 lanes (it ignores them)', old)}\n` +
        `ratio after / before, no lanes: ${(median(withoutLanes) / median(oldPlain)).toFixed(2)}×; ` +
        `5 lanes: ${(median(withLanes) / median(old)).toFixed(2)}× (same fixtures, interleaved, this run)\n`,
    )
  else process.stdout.write('no older build timed (SANGAM_BENCH_BEFORE unset or missing)\n')
} finally {
  rmSync(dir, { recursive: true, force: true })
}
