/**
 * `sangam board` with N threads (a quarter closed, a quarter human-loop, the rest with and
 * without active participants), and one post followed by one read, beside the chat-room peer's
 * `board` and `post` + `read` on a fixture of the same size in the same run. Prints median and
 * p95 wall time of each and the ratio; the board's target is < 200 ms. The peer is
 * `SANGAM_BENCH_PEER` (chat-room 0.8.0); when it is absent or does not run, the CEO-side figures
 * from the issue are printed, labelled as such (board 1,013 ms, post + read 424 ms).
 *
 *   npm run build && node --import tsx bench/room-board.ts [threads] [runs]
 */
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { benchScratch } from './helpers/bench-scratch.ts'
import { openBenchThreads } from './helpers/bench-threads.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const threadCount = Number(process.argv[2] ?? 100)
const runs = Number(process.argv[3] ?? 15)
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')
const peer = process.env.SANGAM_BENCH_PEER
/** The issue's figures for the peer on the CEO's machine (not measured here). */
const ceoPeer = { board: 1013, postRead: 424 }

const { dir, env, run, emptyRepo } = benchScratch('board')
const time = (samples: number, once: (i: number) => void): number[] => {
  once(-1) // warm the page cache
  const times: number[] = []
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now()
    once(i)
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)
}
const line = (what: string, times: readonly number[]) =>
  `${what}: median ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms over ${times.length} runs`

try {
  const repo = emptyRepo('repo')
  run(process.execPath, [cli, 'init', '--no-mcp', '--json'], repo)
  openBenchThreads(env, repo, threadCount)
  const board = time(runs, () => run(process.execPath, [cli, 'board', '--json'], repo))
  const p50 = percentile(board, 50)
  process.stdout.write(
    `${line(`sangam board, ${threadCount} threads`, board)} (target < 200 ms: ${p50 < 200 ? 'met' : 'missed'})\n`,
  )
  const postRead = time(runs, (i) => {
    run(process.execPath, [cli, 'post', `bench message ${i} ${performance.now()}`], repo)
    run(process.execPath, [cli, 'read', '--limit', '50', '--json'], repo)
  })
  process.stdout.write(`${line('sangam post + read', postRead)}\n`)

  const peerRuns = peer !== undefined && existsSync(peer) && spawnSync(peer, ['--version']).status === 0
  if (peerRuns) {
    const data = ['--data-dir', join(dir, 'peer')]
    for (let i = 0; i < threadCount; i += 1) {
      run(
        peer,
        [
          ...data,
          'thread-open',
          '--cwd',
          repo,
          '--title',
          `thread ${i}: the projection rewrite, part ${i}`,
          '--audience',
          i % 4 === 1 ? 'human-loop' : 'agents',
          '--path',
          `src/part-${i}.ts`,
        ],
        repo,
      )
    }
    const theirBoard = time(runs, () => run(peer, [...data, 'board', '--cwd', repo], repo))
    const theirPostRead = time(runs, (i) => {
      run(
        peer,
        [...data, 'post', '--cwd', repo, '--message', `bench message ${i} ${performance.now()}`],
        repo,
      )
      run(peer, [...data, 'read', '--cwd', repo, '--limit', '50'], repo)
    })
    process.stdout.write(
      `${line(`chat-room board (${peer}), ${threadCount} threads`, theirBoard)}\n` +
        `${line('chat-room post + read', theirPostRead)}\n` +
        `ratio sangam / chat-room (measured in this run): board ${(p50 / percentile(theirBoard, 50)).toFixed(2)}×, post + read ${(percentile(postRead, 50) / percentile(theirPostRead, 50)).toFixed(2)}×\n`,
    )
  } else {
    process.stdout.write(
      `peer not measured (SANGAM_BENCH_PEER unset or not runnable); the issue's CEO-side figures for chat-room: board ${ceoPeer.board} ms, post + read ${ceoPeer.postRead} ms\n` +
        `ratio sangam / CEO-side peer figures: board ${(p50 / ceoPeer.board).toFixed(2)}×, post + read ${(percentile(postRead, 50) / ceoPeer.postRead).toFixed(2)}× (different machines: indicative only)\n`,
    )
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
