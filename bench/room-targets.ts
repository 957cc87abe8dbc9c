/**
 * `sangam targets` for 21 worktrees (the main one and 20 linked, each with an uncommitted file),
 * with 5 agent sessions recorded by the real hook, beside the chat-room peer's `targets` on the
 * same repository in the same run. Prints the median and p95 wall time of each over the runs and
 * their ratio; the target is < 400 ms. The peer is `SANGAM_BENCH_PEER` (chat-room 0.8.0); when it
 * is absent or does not run, the CEO-side peer figure from the issue is printed, labelled as such.
 *
 *   npm run build && node --import tsx bench/room-targets.ts [runs]
 */
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { benchScratch } from './helpers/bench-scratch.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 15)
const worktreeCount = 21
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')
const hook = join(root, 'dist', 'hooks', 'agent-hook-main.cjs')
const peer = process.env.SANGAM_BENCH_PEER
/** The figure for the peer on the CEO's machine (not measured here). */
const ceoPeerMs = 920

const { dir, run, emptyRepo } = benchScratch('targets')

try {
  const repo = emptyRepo('repo')
  const worktrees = [repo]
  for (let i = 1; i < worktreeCount; i += 1) {
    const path = join(dir, `lane-${i}`)
    run('git', ['worktree', 'add', '-q', path, '-b', `lane-${i}`], repo)
    worktrees.push(path)
  }
  for (const path of worktrees) writeFileSync(join(path, 'draft.txt'), 'work in progress\n')
  run(process.execPath, [cli, 'init', '--json'], repo)
  for (let i = 0; i < 5; i += 1) {
    const cwd = worktrees[i * 4] as string
    const payload = {
      session_id: `bench-session-${i}`,
      cwd,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'go',
    }
    run(process.execPath, [hook, i % 2 === 0 ? 'claude' : 'codex'], cwd, JSON.stringify(payload))
  }

  const time = (command: string, args: readonly string[]): number[] => {
    run(command, args, repo) // warm the page cache once
    const times: number[] = []
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now()
      run(command, args, repo)
      times.push(performance.now() - started)
    }
    return times.sort((a, b) => a - b)
  }
  const ours = time(process.execPath, [cli, 'targets', '--json'])
  const listed = JSON.parse(run(process.execPath, [cli, 'targets', '--json'], repo)) as {
    worktrees: unknown[]
  }
  if (listed.worktrees.length !== worktreeCount)
    throw new Error(`targets listed ${listed.worktrees.length} worktrees`)
  const p50 = percentile(ours, 50)
  const p95 = percentile(ours, 95)
  process.stdout.write(
    `sangam targets, ${worktreeCount} worktrees, 5 sessions: median ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${runs} runs (target < 400 ms: ${p50 < 400 ? 'met' : 'missed'})\n`,
  )

  const peerRuns = peer !== undefined && existsSync(peer) && spawnSync(peer, ['--version']).status === 0
  if (peerRuns) {
    const theirs = time(peer, ['--data-dir', join(dir, 'peer'), 'targets', '--cwd', repo])
    const peerP50 = percentile(theirs, 50)
    process.stdout.write(
      `chat-room targets (${peer}), same repository: median ${peerP50.toFixed(0)} ms, p95 ${percentile(theirs, 95).toFixed(0)} ms\n` +
        `ratio sangam / chat-room: ${(p50 / peerP50).toFixed(2)}× (measured in this run)\n`,
    )
  } else {
    process.stdout.write(
      `peer not measured (SANGAM_BENCH_PEER unset or not runnable); the issue's CEO-side figure for chat-room targets with 21 worktrees: ${ceoPeerMs} ms\n` +
        `ratio sangam / CEO-side peer figure: ${(p50 / ceoPeerMs).toFixed(2)}× (different machines: indicative only)\n`,
    )
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
