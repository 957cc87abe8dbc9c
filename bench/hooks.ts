/**
 * Wall time of the PreToolUse hook, process start to exit, as Claude Code pays it on every edit:
 * p50/p95 for an allowed edit of the file the session is already editing (its auto-lease fresh:
 * read only), an allowed edit of a new file (which writes its auto-lease), and a denied one (a file
 * another human claimed; a folder glob is claimed too), beside `node -e 0` measured in the same
 * run, interleaved, so that the machine's noise lands on all alike. The target is a p95 within
 * 1.5× of that floor. Where GNU time exists, the mean CPU time of each is printed too, the steadier
 * figure on a busy machine.
 *
 * The room is not empty: a Codex session is online in the same worktree and the overlap picture
 * holds 200 rows (one for the file edited), so the house rules (`one-actor-per-worktree`,
 * `file-overlap`, at their default `warn`) read presence and overlaps on every edit. With
 * `--baseline <agent-hook-main.cjs>` (a build of an earlier commit) its allow (both kinds) and deny
 * are timed in the same loop, and each of ours is printed as a ratio of the baseline's, so the cost
 * of a change is read off one run.
 *
 *   npm run build && node --import tsx bench/hooks.ts [runs] [--baseline <hook.cjs>]
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, realpathSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { type OverlapRow, replaceOverlaps } from '../src/room/store/overlap-table.ts'
import { benchRepo } from './helpers/bench-repo.ts'
import { type TimedRun, timedNode } from './helpers/timed-node.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const cliArgs = process.argv.slice(2)
const baselineAt = cliArgs.indexOf('--baseline')
const baseline = baselineAt === -1 ? null : (cliArgs.splice(baselineAt, 2)[1] ?? null)
const runs = Number(cliArgs[0] ?? 60)
const root = join(import.meta.dirname, '..')
const cli = join(root, 'dist', 'cli', 'main.js')
const hook = join(root, 'dist', 'hooks', 'agent-hook-main.cjs')
const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

const { scratch, repo, env, sh } = benchRepo('hooks', {
  'src/a.ts': 'export const a = 1\n',
  'src/b.ts': 'export const b = 1\n',
})

function timed(args: readonly string[], stdin: string): Promise<TimedRun> {
  return timedNode(args, { cwd: repo, env, stdin })
}

function edit(file: string): string {
  return JSON.stringify({
    session_id: 'bench-session',
    transcript_path: join(repo, 'transcript.jsonl'),
    cwd: repo,
    permission_mode: 'acceptEdits',
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: join(repo, file), old_string: 'a', new_string: 'b', replace_all: false },
    tool_use_id: 'toolu_bench',
  })
}

/** The one-minute load average, where the system tells it (Linux), so a reader can judge the noise. */
function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'
  } catch {
    return '?'
  }
}

type Sample = Pick<TimedRun, 'ms' | 'cpuMs'>

function summary(name: string, samples: readonly Sample[], floor: readonly Sample[]): string {
  const quantile = (values: number[], p: number): number =>
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    )
  const wall = samples.map((sample) => sample.ms)
  const floorWall = floor.map((sample) => sample.ms)
  const ratio = (value: number, base: number): string => `${(value / base).toFixed(2)}×`
  const p50 = quantile(wall, 50)
  const p95 = quantile(wall, 95)
  let line = `${name.padEnd(20)} wall p50 ${p50.toFixed(1).padStart(6)} ms (${ratio(p50, quantile(floorWall, 50))})  p95 ${p95.toFixed(1).padStart(6)} ms (${ratio(p95, quantile(floorWall, 95))})`
  const cpu = samples.flatMap((sample) => (sample.cpuMs === null ? [] : [sample.cpuMs]))
  const floorCpu = floor.flatMap((sample) => (sample.cpuMs === null ? [] : [sample.cpuMs]))
  if (cpu.length > 0 && floorCpu.length > 0) {
    const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length
    line += `   cpu mean ${mean(cpu).toFixed(1).padStart(6)} ms (${ratio(mean(cpu), mean(floorCpu))})`
  }
  return line
}

try {
  const init = spawnSync(process.execPath, [cli, 'init', '--json'], { cwd: repo, env, encoding: 'utf8' })
  const database = (JSON.parse(init.stdout) as { database: string }).database
  sh(process.execPath, [cli, 'claim', 'src/a.ts', '-r', 'bench'], { SANGAM_USER: 'bob@example.com' })
  // A glob among the leases, as teams claim folders: every edit is checked against it too.
  sh(process.execPath, [cli, 'claim', 'docs/**', '-r', 'bench'], { SANGAM_USER: 'bob@example.com' })

  // Another agent in the worktree (a real SessionStart), and the daemon's overlap picture.
  await timed(
    [hook, 'codex'],
    JSON.stringify({
      session_id: 'bench-codex',
      cwd: repo,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
  )
  const db = openDatabaseFile(database)
  const worktree = realpathSync(repo)
  const overlapRow = (path: string): OverlapRow => ({
    worktree,
    path,
    otherWorktree: join(scratch, 'other'),
    otherBranch: 'h/other',
    conflicted: false,
    computedAt: 1,
  })
  const overlapRows = [
    overlapRow('src/b.ts'),
    ...Array.from({ length: 199 }, (_, i) => overlapRow(`lib/f${i}.ts`)),
  ]
  db.transaction(() => replaceOverlaps(db, overlapRows))()
  db.close()

  const allow = edit('src/b.ts')
  const deny = edit('src/a.ts')
  // The first run asks git for the project and leaves the locator every later run reads.
  const first = await timed([hook, 'claude'], allow)
  const denied = await timed([hook, 'claude'], deny)
  if (!denied.stdout.includes('"permissionDecision":"deny"'))
    throw new Error(`expected a denial, got ${denied.stdout}`)
  for (let i = 0; i < 5; i++) await timed(['-e', '0'], '')

  const floor: Sample[] = []
  const allowed: Sample[] = []
  const recorded: Sample[] = []
  const refused: Sample[] = []
  const baseAllowed: Sample[] = []
  const baseRecorded: Sample[] = []
  const baseRefused: Sample[] = []
  const first2 = await timed([hook, 'claude'], allow)
  if (
    !first2.stdout.includes('one-actor-per-worktree (warn)') ||
    !first2.stdout.includes('file-overlap (warn)')
  )
    throw new Error(`expected the room's notes, got ${first2.stdout}`)
  for (let i = 0; i < runs; i++) {
    floor.push(await timed(['-e', '0'], ''))
    allowed.push(await timed([hook, 'claude'], allow))
    recorded.push(await timed([hook, 'claude'], edit(`src/new-${i}.ts`)))
    refused.push(await timed([hook, 'claude'], deny))
    if (baseline !== null) {
      baseAllowed.push(await timed([baseline, 'claude'], allow))
      baseRecorded.push(await timed([baseline, 'claude'], edit(`src/base-new-${i}.ts`)))
      baseRefused.push(await timed([baseline, 'claude'], deny))
    }
  }
  const load = loadAverage()
  print(
    `PreToolUse hook, ${runs} runs each, interleaved (Node ${process.version}, load ${load}); first run ${first.ms.toFixed(1)} ms`,
  )
  print(summary('node -e 0 (floor)', floor, floor))
  print(summary('allow, same file', allowed, floor))
  print(summary('allow, new file', recorded, floor))
  print(summary('deny', refused, floor))
  if (baseline !== null) {
    print(`baseline ${baseline}:`)
    print(summary('allow, same (base)', baseAllowed, floor))
    print(summary('allow, new (base)', baseRecorded, floor))
    print(summary('deny (base)', baseRefused, floor))
    print('this build / baseline (below 1: faster):')
    print(summary('allow, same file', allowed, baseAllowed))
    print(summary('allow, new file', recorded, baseRecorded))
    print(summary('deny', refused, baseRefused))
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
