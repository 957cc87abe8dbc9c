/**
 * `sangam claim` with a team server attached (issue 24): three machines on one host (own HOME,
 * SANGAM_HOME and clone), one `sangam serve` on loopback; alice and bob attached, carol not. Alice's
 * clone has four other worktrees (one at main, one with a commit of its own, one with uncommitted
 * work, one with both), so a claim's forecast has something to read. Each row is `ROUNDS` claims
 * (default 9) of a new path, one after another: median wall time, median CPU time (GNU time) and
 * the git processes one claim spawns (a logging `git` on PATH, test/helpers/git-call-log.ts), each
 * also as a ratio to `node -e 0` timed the same way in the same run. Then `CONTENDERS` claims
 * (default 30) started at once on one path: the wall time until all have answered and the CPU
 * time they used together. With SANGAM_BENCH_BASELINE=<another build's dist/cli/main.js> the
 * same rows run with that build too, interleaved, and every figure gets its ratio to the
 * baseline's.
 *
 *   npm run build && SANGAM_BENCH_BASELINE=<before>/dist/cli/main.js node --import tsx bench/team-claim.ts
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { gitCallLog } from '../test/helpers/git-call-log.ts'
import { cliEntry, runCli } from '../test/helpers/run-cli.ts'
import { attachBoth, type Machine, syncWorld } from '../test/helpers/sync-world.ts'
import { hasGnuTime, timedNode } from './helpers/timed-node.ts'

const rounds = Number(process.env.ROUNDS ?? 9)
const contenders = Number(process.env.CONTENDERS ?? 30)
const baselineCli = process.env.SANGAM_BENCH_BASELINE ?? null
const builds: readonly { readonly name: string; readonly cli: string }[] = [
  { name: 'this build', cli: cliEntry },
  ...(baselineCli === null ? [] : [{ name: 'baseline', cli: baselineCli }]),
]

const median = (values: readonly number[]): number =>
  values.length === 0
    ? Number.NaN
    : ([...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? Number.NaN)

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' })
}

/** Four worktrees beside the clone: one at main, one committed, one dirty, one both. */
function otherWorktrees(machine: Machine, root: string): void {
  const shapes = [
    { name: 'at-main', commit: false, dirty: false },
    { name: 'committed', commit: true, dirty: false },
    { name: 'dirty', commit: false, dirty: true },
    { name: 'both', commit: true, dirty: true },
  ]
  for (const shape of shapes) {
    const path = join(root, `wt-${shape.name}`)
    git(machine.repo, 'worktree', 'add', '-q', '-b', shape.name, path)
    mkdirSync(join(path, 'src'), { recursive: true })
    if (shape.commit) {
      writeFileSync(join(path, 'src', `${shape.name}-committed.ts`), 'export {}\n')
      git(path, 'add', '-A')
      git(path, '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', shape.name)
    }
    if (shape.dirty) writeFileSync(join(path, 'src', `${shape.name}-dirty.ts`), 'export {}\n')
  }
}

interface Row {
  readonly name: string
  readonly wallMs: number
  readonly cpuMs: number
  readonly gitCalls: number | null
}

await using world = await syncWorld({ machines: 3 })
const alice = world.a
const carol = world.machines[2] as Machine
await attachBoth(world)
otherWorktrees(alice, join(world.root.path, 'alice-worktrees'))
otherWorktrees(carol, join(world.root.path, 'carol-worktrees'))
const log = gitCallLog(join(world.root.path, 'git-calls'))

let claimed = 0
/** One claim of a path nobody holds, on `machine`, timed; its git processes counted when `countGit`. */
async function claimOnce(
  machine: Machine,
  cli: string,
  countGit: boolean,
): Promise<Row & { gitCalls: number }> {
  claimed += 1
  log.reset()
  const run = await timedNode([cli, 'claim', `src/bench-${claimed}.ts`, '--reason', 'bench', '--json'], {
    cwd: machine.repo,
    env: countGit ? log.env(machine.env) : machine.env,
    mustSucceed: true,
  })
  return {
    name: '',
    wallMs: run.ms,
    cpuMs: run.cpuMs ?? Number.NaN,
    gitCalls: countGit ? log.calls().length : 0,
  }
}

async function floorOnce(): Promise<{ wallMs: number; cpuMs: number }> {
  const run = await timedNode(['-e', '0'], { cwd: alice.repo, env: alice.env, mustSucceed: true })
  return { wallMs: run.ms, cpuMs: run.cpuMs ?? Number.NaN }
}

/** Every case, `rounds` times, interleaved; then one counted run each for its git processes. */
async function measure(cases: readonly { name: string; machine: Machine; cli: string }[]): Promise<Row[]> {
  for (const c of cases) await claimOnce(c.machine, c.cli, false) // warm: V8 caches, the memo
  const walls = cases.map((): number[] => [])
  const cpus = cases.map((): number[] => [])
  const floor = { walls: [] as number[], cpus: [] as number[] }
  for (let round = 0; round < rounds; round += 1) {
    const f = await floorOnce()
    floor.walls.push(f.wallMs)
    floor.cpus.push(f.cpuMs)
    for (const [i, c] of cases.entries()) {
      const run = await claimOnce(c.machine, c.cli, false)
      walls[i]?.push(run.wallMs)
      cpus[i]?.push(run.cpuMs)
    }
  }
  const rows: Row[] = [
    { name: 'node -e 0', wallMs: median(floor.walls), cpuMs: median(floor.cpus), gitCalls: 0 },
  ]
  for (const [i, c] of cases.entries()) {
    const counted = await claimOnce(c.machine, c.cli, true)
    rows.push({
      name: c.name,
      wallMs: median(walls[i] ?? []),
      cpuMs: median(cpus[i] ?? []),
      gitCalls: counted.gitCalls,
    })
  }
  return rows
}

/**
 * `contenders` people claiming one path at once on alice's clone: the wall time until the last
 * answered, and the CPU time all of them used together (which the machine's load moves less).
 */
async function contend(
  cli: string,
  pattern: string,
): Promise<{ wallMs: number; cpuMs: number; granted: number }> {
  const started = performance.now()
  const runs = await Promise.all(
    Array.from({ length: contenders }, (_, i) =>
      timedNode([cli, 'claim', pattern, '--reason', `race ${i}`, '--json'], {
        cwd: alice.repo,
        env: { ...alice.env, SANGAM_USER: `racer-${i}@example.test` },
      }),
    ),
  )
  return {
    wallMs: performance.now() - started,
    cpuMs: runs.reduce((sum, run) => sum + (run.cpuMs ?? Number.NaN), 0),
    granted: runs.filter((run) => /"granted":\s*true/.test(run.stdout)).length,
  }
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`
function table(rows: readonly Row[]): void {
  const floor = rows[0] as Row
  const base = (name: string) => rows.find((row) => row.name === name.replace('this build', 'baseline'))
  const header = [
    'row',
    'wall (median)',
    'CPU (median)',
    'git',
    '× node -e 0 (wall / CPU)',
    '× baseline (wall / CPU / git)',
  ]
  const cells = rows.map((row) => {
    const b = row.name.includes('this build') ? base(row.name) : undefined
    return [
      row.name,
      fmt(row.wallMs),
      hasGnuTime ? fmt(row.cpuMs) : '-',
      row.gitCalls === null ? '-' : String(row.gitCalls),
      `${(row.wallMs / floor.wallMs).toFixed(1)}× / ${(row.cpuMs / floor.cpuMs).toFixed(1)}×`,
      b === undefined
        ? ''
        : `${(row.wallMs / b.wallMs).toFixed(2)}× / ${(row.cpuMs / b.cpuMs).toFixed(2)}× / ${row.gitCalls ?? '-'} vs ${b.gitCalls ?? '-'}`,
    ]
  })
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((cell) => (cell[i] ?? '').length)),
  )
  const line = (cell: readonly string[]) =>
    `| ${cell.map((text, i) => text.padEnd(widths[i] ?? 0)).join(' | ')} |`
  process.stdout.write(`${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`)
  for (const cell of cells) process.stdout.write(`${line(cell)}\n`)
}

process.stdout.write(
  `claim with a team server attached: ${rounds} rounds, load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores\n`,
)
const cases = builds.flatMap((build) => [
  { name: `${build.name}: claim, not attached`, machine: carol, cli: build.cli },
  { name: `${build.name}: claim, attached`, machine: alice, cli: build.cli },
])
const rows = await measure(cases)

// With `sangam up` running on alice: its round's worktree states stand in for git (D435).
const up = alice.up()
try {
  await up.waitFor('sync-connected', 120_000)
  for (;;) {
    const targets = JSON.parse(
      (await runCli(['targets', '--json'], { cwd: alice.repo, env: alice.env })).stdout,
    ) as {
      states: { source: string }
    }
    if (targets.states.source === 'daemon') break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const daemonRows = await measure(
    builds.map((build) => ({
      name: `${build.name}: claim, attached, sangam up running`,
      machine: alice,
      cli: build.cli,
    })),
  )
  rows.push(...daemonRows.slice(1))
} finally {
  await up.stop()
}
table(rows)

for (const [i, build] of builds.entries()) {
  const { wallMs, cpuMs, granted } = await contend(build.cli, `src/contended-${i}.ts`)
  process.stdout.write(
    `${build.name}: ${contenders} claims of one path started at once: all answered in ${(wallMs / 1000).toFixed(1)} s, ${(cpuMs / 1000).toFixed(1)} s of CPU together, ${granted} granted (load average ${loadavg()[0]?.toFixed(1)})\n`,
  )
}
