/**
 * Backfill throughput: `sangam index` (the compiled CLI, a real process) over a corpus of at least
 * 200 MB made by replicating the shared corpus (every copy rewritten into a distinct session of the
 * project), beside the JSON.parse-only throughput of the same bytes measured in the same run: read
 * each file, split it into lines, JSON.parse every non-blank line, nothing else. The ratio of the
 * two is the figure to watch (target ≥ 30 %); absolute numbers move with the machine's load, so
 * CPU time is quoted as well, and the main thread's own: it commits while a worker reads, so on two
 * idle cores it, not the sum, bounds the wall clock.
 *
 * With `--baseline <main.js>` (the CLI of another build, e.g. an earlier commit's checkout built on
 * the same Node), both CLIs then index the same corpus into fresh stores, alternately, twice each,
 * and the ratios of their throughput and CPU time are printed: the cost of a change read off one run.
 *
 *   npm run build && node --import tsx bench/backfill.ts [megabytes] [--baseline <main.js>]
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { replicateCorpus } from '../test/helpers/capture-corpus.ts'
import { captureWorld } from '../test/helpers/capture-transcripts.ts'
import { cliEntry } from '../test/helpers/run-cli.ts'

const cliArgs = process.argv.slice(2)
const baselineAt = cliArgs.indexOf('--baseline')
const baseline = baselineAt === -1 ? null : (cliArgs.splice(baselineAt, 2)[1] ?? null)
const megabytes = Number(cliArgs[0] ?? 200)

interface IndexJson {
  readonly inserted: number
  readonly durationMs: number
}

interface Timed {
  readonly ms: number
  readonly cpuMs: number
  /** The main thread alone (NaN where it cannot be measured): commits, so it bounds a backfill on two cores. */
  readonly mainCpuMs?: number
}

/** The floor: what it costs just to read and parse the bytes. */
function parseOnly(files: readonly string[]): Timed {
  const cpu = process.cpuUsage()
  const startedAt = performance.now()
  let values = 0
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      try {
        JSON.parse(line)
        values++
      } catch {
        // a torn or glued line: the pipeline copes with it, the floor just skips it
      }
    }
  }
  if (values === 0) throw new Error('parsed nothing')
  const used = process.cpuUsage(cpu)
  return { ms: performance.now() - startedAt, cpuMs: (used.user + used.system) / 1000 }
}

/** `sangam <args>` in its own process, with the CPU time of all its threads. */
function runTimed(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined>,
  entry = cliEntry,
): Promise<Timed & { stdout: string }> {
  const startedAt = performance.now()
  const preloads = ['cpu-at-exit.mjs', 'main-thread-cpu-at-exit.mjs'].flatMap((name) => [
    '--import',
    join(import.meta.dirname, 'helpers', name),
  ])
  const child = spawn(process.execPath, [...preloads, entry, ...args], {
    cwd,
    env: Object.fromEntries(
      Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8')
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  return new Promise((resolve, reject) => {
    child.on('close', (code: number | null) => {
      if (code !== 0) {
        reject(new Error(`sangam ${args.join(' ')} exited ${code}: ${stderr}`))
        return
      }
      resolve({
        stdout,
        ms: performance.now() - startedAt,
        cpuMs: Number(/^cpu-ms (\d+)/m.exec(stderr)?.[1] ?? Number.NaN),
        mainCpuMs: Number(/^main-thread-cpu-ms (\d+)/m.exec(stderr)?.[1] ?? Number.NaN),
      })
    })
  })
}

async function main(): Promise<void> {
  await using world = await captureWorld()
  const corpus = replicateCorpus({
    home: world.home.path,
    cwd: world.repo.path,
    targetBytes: megabytes * 1024 * 1024,
  })
  const mb = corpus.bytes / (1024 * 1024)
  // Both sides read files the page cache already holds.
  const before = parseOnly(corpus.files)
  const startup = await runTimed(['--version'], world.repo.path, world.env)
  const run = await runTimed(['index', '--json'], world.repo.path, world.env)
  const index = { ...run, out: JSON.parse(run.stdout) as IndexJson }
  const after = parseOnly(corpus.files)
  const parse = before.ms <= after.ms ? before : after
  const database = execFileSync('du', ['-sm', join(world.home.path, '.sangam')], { encoding: 'utf8' }).split(
    '\t',
  )[0]
  const perSecond = (amount: number, ms: number): string => (amount / (ms / 1000)).toFixed(1)

  const lines = [
    `backfill: ${corpus.files.length} transcript files, ${mb.toFixed(1)} MB`,
    `  JSON.parse only      ${perSecond(mb, parse.ms)} MB/s (best of two runs: ${before.ms.toFixed(0)} / ${after.ms.toFixed(0)} ms; ${parse.cpuMs.toFixed(0)} ms CPU)`,
    `  sangam index         ${perSecond(mb, index.ms)} MB/s, ${perSecond(index.out.inserted, index.ms)} events/s (${index.out.inserted} events in ${(index.ms / 1000).toFixed(1)} s with process start, ${index.out.durationMs} ms inside; ${index.cpuMs} ms CPU over all threads)`,
    `  of which starting    ${(startup.ms / 1000).toFixed(1)} s, ${startup.cpuMs} ms CPU (\`sangam --version\`: node and the CLI's modules)`,
    `  main thread          ${index.mainCpuMs} ms CPU (prepares files and commits; the rest, ${index.cpuMs - (index.mainCpuMs ?? 0)} ms, is the reading worker and V8's and libuv's helper threads)`,
    `  ratio index / parse  ${((100 * parse.ms) / index.ms).toFixed(0)} % by wall-clock throughput (target ≥ 30 %), ${((100 * parse.cpuMs) / index.cpuMs).toFixed(0)} % by CPU time, ${((100 * parse.cpuMs) / (index.mainCpuMs ?? Number.NaN)).toFixed(0)} % against the main thread's CPU (what wall clock would give on two idle cores, the main thread being the busier one)`,
    `  load average         ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')} (other processes share the cores: wall-clock figures are pessimistic when it is above 0)`,
    `  replica on disk      ${database} MB`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  if (baseline !== null) await compare(baseline, world, mb)
}

/** `index` by this build and by `entry`, each into a store of its own, alternately, twice each. */
async function compare(
  entry: string,
  world: Awaited<ReturnType<typeof captureWorld>>,
  mb: number,
): Promise<void> {
  const indexFresh = async (cli: string): Promise<Timed> => {
    const env = { ...world.env, SANGAM_HOME: mkdtempSync(join(world.home.path, 'compare-')) }
    await runTimed(['init', '--no-mcp', '--json'], world.repo.path, env, cli)
    return runTimed(['index', '--json'], world.repo.path, env, cli)
  }
  const ours: Timed[] = []
  const theirs: Timed[] = []
  for (let round = 0; round < 2; round++) {
    theirs.push(await indexFresh(entry))
    ours.push(await indexFresh(cliEntry))
  }
  const median = (runs: readonly Timed[], pick: (run: Timed) => number): number => {
    const sorted = runs.map(pick).sort((a, b) => a - b)
    return ((sorted[0] ?? Number.NaN) + (sorted[sorted.length - 1] ?? Number.NaN)) / 2
  }
  const describe = (runs: readonly Timed[]): string =>
    runs
      .map((run) => `${(mb / (run.ms / 1000)).toFixed(1)} MB/s (${run.cpuMs} ms CPU, main ${run.mainCpuMs})`)
      .join(', ')
  const ratio = (pick: (run: Timed) => number): string =>
    (median(ours, pick) / median(theirs, pick)).toFixed(2)
  const lines = [
    `baseline ${entry}, fresh stores, alternately:`,
    `  baseline             ${describe(theirs)}`,
    `  this build           ${describe(ours)}`,
    `  this / baseline      wall ${ratio((run) => run.ms)}x, CPU ${ratio((run) => run.cpuMs)}x, main thread CPU ${ratio((run) => run.mainCpuMs ?? Number.NaN)}x (below 1: faster)`,
    `  load average         ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

await main()
