/**
 * Start-up cost of the CLI, process start to answer: `sangam --version`, `sangam --help`,
 * `sangam search x --json` in a project with nothing captured (and with `--vendor`, which loads
 * zod), `sangam claim`, `post`, `read` and `status`, and the MCP server until it answers
 * `initialize` (what an agent CLI waits for before its first model request): through `sangam mcp`,
 * and through the bundled `dist/mcp/mcp-main.cjs` the hosts are registered to run (target: within
 * 2× `node -e 0`, printed as a ratio of medians at the end), then until it lists its tools and
 * answers a first tool call.
 * Each is measured beside `node -e 0` in the same run, interleaved, so that the machine's noise
 * lands on all alike; figures are p50/p95 wall time and, where GNU time exists, p50/p95 CPU time
 * (user + system), the steadier figure on a busy machine.
 *
 * Given a second CLI entry (another build's dist/cli/main.js, with node_modules beside it), both
 * run interleaved and the ratios compare like with like: a before/after in one run. Each CLI has
 * a SANGAM_HOME of its own, since a newer build may migrate a database past what an older reads.
 *
 *   npm run build && node --import tsx bench/cli-startup.ts [runs] [baseline-main.js]
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { benchRepo } from './helpers/bench-repo.ts'
import { hasGnuTime, type TimedRun, timedNode } from './helpers/timed-node.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 30)
const baseline = process.argv[3] === undefined ? null : resolve(process.argv[3])
const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js')
const print = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

const { scratch, repo, env, envFor } = benchRepo('startup', { 'src/a.ts': 'export const a = 1\n' })

/** A CLI entry under test and the environment it runs in. */
interface Target {
  readonly entry: string
  readonly env: NodeJS.ProcessEnv
}

type Sample = Pick<TimedRun, 'ms' | 'cpuMs'>

function timed(
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  options: { stdin?: string; answered?: (stdout: string) => boolean } = {},
): Promise<Sample> {
  return timedNode(args, { cwd: repo, env, mustSucceed: true, ...options })
}

const mcpInitialize = 'mcp-main.cjs → initialize'
const initialize = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '0' },
  },
})}\n`

/** The commands measured, each a function of the CLI under test. */
const cases: readonly { name: string; run: (target: Target) => Promise<Sample> }[] = [
  { name: '--version', run: ({ entry, env }) => timed(env, [entry, '--version']) },
  { name: '--help', run: ({ entry, env }) => timed(env, [entry, '--help']) },
  { name: 'search x --json', run: ({ entry, env }) => timed(env, [entry, 'search', 'x', '--json']) },
  {
    // The same search with a filter validated by a zod schema, which loads only for it.
    name: 'search x --vendor … --json',
    run: ({ entry, env }) => timed(env, [entry, 'search', 'x', '--vendor', 'claude', '--json']),
  },
  {
    name: 'claim',
    run: ({ entry, env }) => timed(env, [entry, 'claim', 'src/a.ts', '-r', 'bench', '--json']),
  },
  // The room's commands the issue 24 table compares with chat-room: a post scrubs its text for
  // secrets, and all three find the project first.
  { name: 'post', run: ({ entry, env }) => timed(env, [entry, 'post', 'bench says hello', '--json']) },
  { name: 'read', run: ({ entry, env }) => timed(env, [entry, 'read', '--json']) },
  { name: 'status', run: ({ entry, env }) => timed(env, [entry, 'status', '--json']) },
  {
    name: 'mcp → initialize',
    run: ({ entry, env }) =>
      timed(env, [entry, 'mcp'], {
        stdin: initialize,
        answered: (stdout) => stdout.includes('"id":1'),
      }),
  },
  {
    // What Claude Code and Codex run (install/mcp-registration.ts): the bundled MCP entry.
    name: mcpInitialize,
    run: ({ entry, env }) =>
      timed(env, [mcpEntryBeside(entry)], {
        stdin: initialize,
        answered: (stdout) => stdout.includes('"id":1'),
      }),
  },
  {
    // What a host waits for before its first model request: the tools, listed.
    name: 'mcp-main.cjs → initialize, tools/list',
    run: ({ entry, env }) =>
      timed(env, [mcpEntryBeside(entry)], {
        stdin: `${initialize}${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
        answered: (stdout) => stdout.includes('"id":2'),
      }),
  },
  {
    // The first tool call, which loads the server the listing stood in for (D395).
    name: 'mcp-main.cjs → first tool call',
    run: ({ entry, env }) =>
      timed(env, [mcpEntryBeside(entry)], {
        stdin: `${initialize}${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ctx_who_has', arguments: { path: 'src/a.ts' } } })}\n`,
        answered: (stdout) => stdout.includes('"id":2'),
      }),
  },
]

/** The bundled MCP server of the build whose CLI is `cliEntry` (dist/mcp/ beside dist/cli/). */
function mcpEntryBeside(cliEntry: string): string {
  const bundled = join(dirname(cliEntry), '..', 'mcp', 'mcp-main.cjs')
  if (!existsSync(bundled)) throw new Error(`${bundled} is missing: a build from before the MCP bundle?`)
  return bundled
}

/** The one-minute load average, where the system tells it (Linux), so a reader can judge the noise. */
function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'
  } catch {
    return '?'
  }
}

function summary(name: string, samples: readonly Sample[], floor: readonly Sample[]): string {
  const quantile = (values: readonly number[], p: number): number =>
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    )
  const ratio = (value: number, base: number): string => `${(value / base).toFixed(2)}×`.padStart(7)
  const figures = (pick: (sample: Sample) => number | null): string | null => {
    const values = samples.flatMap((sample) => pick(sample) ?? [])
    const base = floor.flatMap((sample) => pick(sample) ?? [])
    if (values.length === 0 || base.length === 0) return null
    return [50, 95]
      .map((p) => {
        const value = quantile(values, p)
        return `p${p} ${value.toFixed(0).padStart(5)} ms ${ratio(value, quantile(base, p))}`
      })
      .join('  ')
  }
  const wall = figures((sample) => sample.ms)
  const cpu = figures((sample) => sample.cpuMs)
  return `${name.padEnd(46)} wall ${wall}${cpu === null ? '' : `   cpu ${cpu}`}`
}

try {
  const targets =
    baseline === null
      ? [{ label: '', entry: cli, env }]
      : [
          { label: 'baseline ', entry: baseline, env: envFor('.sangam-baseline') },
          { label: 'this build ', entry: cli, env },
        ]
  for (const target of targets) {
    const init = spawnSync(process.execPath, [target.entry, 'init', '--no-mcp'], {
      cwd: repo,
      env: target.env,
      encoding: 'utf8',
    })
    if (init.status !== 0) throw new Error(`sangam init: ${init.stderr}`)
  }
  // Warm the file cache and the project's locator before anything is measured.
  for (const target of targets) for (const each of cases) await each.run(target)
  const floor: Sample[] = []
  const samples = new Map<string, Sample[]>()
  for (let i = 0; i < runs; i++) {
    floor.push(await timed(env, ['-e', '0']))
    for (const target of targets) {
      for (const each of cases) {
        const key = `${target.label}${each.name}`
        samples.set(key, [...(samples.get(key) ?? []), await each.run(target)])
      }
    }
  }
  print(
    `CLI start-up, ${runs} runs each, interleaved (Node ${process.version}, load ${loadAverage()}${hasGnuTime ? '' : ', no GNU time: wall only'}); ratios against node -e 0`,
  )
  if (baseline !== null) print(`baseline: ${baseline}`)
  print(summary('node -e 0 (floor)', floor, floor))
  for (const [key, values] of samples) print(summary(key, values, floor))
  // Issue 24's target: the server the hosts run answers `initialize` within 2× `node -e 0`.
  const median = (values: readonly number[]): number =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    )
  for (const target of targets) {
    const mcp = samples.get(`${target.label}${mcpInitialize}`) ?? []
    const ratio = median(mcp.map((sample) => sample.ms)) / median(floor.map((sample) => sample.ms))
    print(`${target.label}MCP initialize / node -e 0, wall medians: ${ratio.toFixed(2)}× (target ≤ 2×)`)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
