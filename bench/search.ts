/**
 * Search latency over a replica of 1,000,000 events whose texts are sentences of real transcripts.
 * Prints p50/p95 of two-word queries (common, rare and mixed words) through MemorySearch, beside two
 * baselines measured in the same run: a one-word query for a rare word, and fetching one event by id.
 *
 *   node --import tsx bench/search.ts [events]
 *
 * The store is built once into the OS temp dir and reused while its parameters match (building a
 * million events with their index takes a minute or two).
 *
 * With `--baseline <checkout>` (another build's checkout, e.g. an earlier commit's, on the same
 * Node), that checkout's own bench/search.ts runs on the same store file just before and just after
 * this one, each in its own process, and the ratios of every row are printed. On a shared machine
 * the load moves between those runs; so the checkout's own MemorySearch (its store driver with it,
 * better-sqlite3 or node:sqlite: the two load side by side) is also run in this process on the same
 * file, in blocks of ten queries alternating with this build's, and the CPU ratios of that printed:
 * the figure to trust when the load average is above 1.
 *
 *   node --import tsx bench/search.ts [events] [--baseline <checkout>]
 *
 * Then what a user pays: `sangam search <two words> --json`, the compiled CLI (build it first) in its
 * own process on a project whose store is that same file, process start included, beside
 * `sangam --version` (the start alone); with `--baseline`, the checkout's own built CLI is timed in
 * the same loop, interleaved, and the ratios printed. The in-process rows include one that makes a
 * MemorySearch per query, as `ctx_search` and the dashboard do on the connection they keep.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSearchQuery } from '../src/memory/core/search-query.ts'
import { MemorySearch, type SearchInput } from '../src/memory/services/search.ts'
import { getEventById } from '../src/memory/store/event-table.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { ManualClock } from '../src/shared/clock.ts'
import { isolatedEnv, runCliJson } from '../test/helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from '../test/helpers/tmp-git-repo.ts'
import { queryPairs } from './helpers/query-pairs.ts'
import { buildStore } from './helpers/search-store.ts'
import { hasGnuTime, timedNode } from './helpers/timed-node.ts'
import { percentile, transcriptSentences } from './helpers/transcript-sentences.ts'

const cliArgs = process.argv.slice(2)
const baselineAt = cliArgs.indexOf('--baseline')
const baseline = baselineAt === -1 ? null : (cliArgs.splice(baselineAt, 2)[1] ?? null)
const eventCount = Number(cliArgs[0] ?? 1_000_000)
const print = (...parts: string[]): void => {
  process.stdout.write(`${parts.join(' ')}\n`)
}
const now = Date.parse('2026-11-15T12:00:00Z')
interface Samples {
  /** Wall-clock milliseconds per call, sorted. */
  readonly wall: number[]
  /** CPU milliseconds (user + system) per call, sorted: what a call costs when the machine is not shared. */
  readonly cpu: number[]
}

/** Each of `runs` calls timed, after 20 warm-up calls. */
function time(runs: number, run: (i: number) => unknown): Samples {
  for (let i = 0; i < 20; i++) run(i)
  const wall: number[] = []
  const cpu: number[] = []
  for (let i = 0; i < runs; i++) {
    const cpuStart = process.cpuUsage()
    const started = performance.now()
    run(i)
    wall.push(performance.now() - started)
    const used = process.cpuUsage(cpuStart)
    cpu.push((used.user + used.system) / 1000)
  }
  return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) }
}

const dir = join(tmpdir(), 'sangam-bench')
mkdirSync(dir, { recursive: true })
const file = join(dir, `search-${eventCount}-v1.db`)
if (!existsSync(file)) buildStore(file, eventCount, now, print)
const baselineBefore = baseline === null ? null : runBaseline(baseline)
const db = openDatabaseFile(file)
const search = new MemorySearch(db, new ManualClock(now))
const runs = 300
const queries = queryPairs(db, transcriptSentences(), eventCount)
const rareWords = (queries['two rare words'] ?? []).map((pair) => pair.split(' ')[0] ?? '')
const rows: [string, Samples][] = []
const searchWith = (texts: string[], extra: Partial<SearchInput>) => (i: number) =>
  search.search({ text: texts[i % texts.length] ?? '', ...extra })
rows.push(['baseline: event by id', time(runs, (i) => getEventById(db, `ev_${(i * 7919) % eventCount}`))])
rows.push(['baseline: one rare word', time(runs, searchWith(rareWords, {}))])
// The design not taken (D13): FTS5 ranking every match with its own bm25(), for comparison.
const ftsRank = db.prepare(
  `SELECT rowid FROM event_fts WHERE event_fts MATCH ? ORDER BY bm25(event_fts) LIMIT 20`,
)
const commonPairs = queries['two common words'] ?? []
rows.push([
  'FTS5 bm25(), two common words',
  time(100, (i) => ftsRank.all(buildSearchQuery(commonPairs[i % commonPairs.length] ?? '').match)),
])
for (const [label, texts] of Object.entries(queries)) rows.push([label, time(runs, searchWith(texts, {}))])
for (const [label, texts] of Object.entries(queries)) {
  rows.push([`${label}, --since all`, time(runs, searchWith(texts, { since: 'all' }))])
}
const rarePairs = queries['two rare words'] ?? []
rows.push([
  'two rare words, a MemorySearch each',
  time(runs, (i) =>
    new MemorySearch(db, new ManualClock(now)).search({ text: rarePairs[i % rarePairs.length] ?? '' }),
  ),
])
const oneWord = percentile(rows[1]?.[1].wall ?? [], 50)
const [load] = loadavg()
print(
  `search over ${eventCount} events (${file}); ${runs} queries each, default limit 20; load average ${load?.toFixed(1)}`,
)
print(
  'query'.padEnd(36),
  'p50 ms'.padStart(8),
  'p95 ms'.padStart(8),
  'p50 / one word'.padStart(15),
  'cpu p50'.padStart(8),
  'cpu p95'.padStart(8),
)
for (const [label, samples] of rows) {
  const p50 = percentile(samples.wall, 50)
  print(
    label.padEnd(36),
    p50.toFixed(2).padStart(8),
    percentile(samples.wall, 95).toFixed(2).padStart(8),
    `${(p50 / oneWord).toFixed(1)}x`.padStart(15),
    percentile(samples.cpu, 50).toFixed(2).padStart(8),
    percentile(samples.cpu, 95).toFixed(2).padStart(8),
  )
}
db.close()

if (baseline !== null && baselineBefore !== null) {
  const after = runBaseline(baseline)
  print(`baseline ${baseline}: its bench/search.ts on the same store, run before and after this one`)
  print(
    'query'.padEnd(36),
    'p50 ratio'.padStart(10),
    'p95 ratio'.padStart(10),
    'cpu p50 ratio'.padStart(14),
    '(this / baseline mean; below 1: faster)',
  )
  for (const [label, samples] of rows) {
    const theirs = [baselineBefore.get(label), after.get(label)].filter((row) => row !== undefined)
    if (theirs.length === 0) continue
    const mean = (pick: (row: BaselineRow) => number): number =>
      theirs.reduce((sum, row) => sum + pick(row), 0) / theirs.length
    print(
      label.padEnd(36),
      `${(percentile(samples.wall, 50) / mean((row) => row.p50)).toFixed(2)}x`.padStart(10),
      `${(percentile(samples.wall, 95) / mean((row) => row.p95)).toFixed(2)}x`.padStart(10),
      `${(percentile(samples.cpu, 50) / mean((row) => row.cpuP50)).toFixed(2)}x`.padStart(14),
    )
  }
}

if (baseline !== null) await interleaved(baseline, queries)
await endToEnd(queries['common + rare'] ?? [])

interface SearchLike {
  search(input: SearchInput): { readonly hits: readonly unknown[] }
}

/**
 * This build's MemorySearch and the checkout's, loaded side by side in this process over the same
 * store file, each query family run in blocks of ten queries alternating between the two, so that
 * both see the same load. Prints CPU p50 and mean ratios.
 */
async function interleaved(checkout: string, families: Record<string, string[]>): Promise<void> {
  const load = async <T>(path: string): Promise<T> => (await import(join(checkout, path))) as T
  const { MemorySearch: TheirSearch } = await load<{
    MemorySearch: new (
      db: unknown,
      clock: unknown,
    ) => SearchLike
    // A checkout from before the feature-first tree (D400) has it under services/.
  }>(
    existsSync(join(checkout, 'src/memory/services/search.ts'))
      ? 'src/memory/services/search.ts'
      : 'src/services/memory/search.ts',
  )
  const { openDatabaseFile: openTheirs } = await load<{
    openDatabaseFile(file: string, options: { readonly: boolean }): { close(): void }
  }>('src/store/database.ts')
  const { ManualClock: TheirClock } = await load<{ ManualClock: new (now: number) => unknown }>(
    'src/shared/clock.ts',
  )
  const ourDb = openDatabaseFile(file, { readonly: true })
  const theirDb = openTheirs(file, { readonly: true })
  const sides: [string, SearchLike][] = [
    ['this', new MemorySearch(ourDb, new ManualClock(now))],
    ['theirs', new TheirSearch(theirDb, new TheirClock(now))],
  ]
  const rounds = 30
  const block = 10
  print(
    `interleaved in one process with ${checkout}'s MemorySearch: ${rounds} blocks of ${block} queries each side per row; load average ${loadavg()[0]?.toFixed(1)}`,
  )
  print(
    'query'.padEnd(36),
    'cpu p50 ratio'.padStart(14),
    'cpu mean ratio'.padStart(15),
    '(this / theirs; below 1: faster)',
  )
  const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length
  for (const [family, texts] of Object.entries(families)) {
    for (const [label, extra] of [
      [family, {}],
      [`${family}, --since all`, { since: 'all' }],
    ] as const) {
      const cpu = new Map<string, number[]>(sides.map(([name]) => [name, []]))
      for (let i = 0; i < 20; i++)
        for (const [, side] of sides) side.search({ text: texts[i % texts.length] ?? '', ...extra })
      for (let round = 0; round < rounds; round++) {
        for (const [name, side] of sides) {
          for (let i = 0; i < block; i++) {
            const started = process.cpuUsage()
            side.search({ text: texts[(round * block + i) % texts.length] ?? '', ...extra })
            const used = process.cpuUsage(started)
            cpu.get(name)?.push((used.user + used.system) / 1000)
          }
        }
      }
      const ours = (cpu.get('this') ?? []).sort((a, b) => a - b)
      const theirs = (cpu.get('theirs') ?? []).sort((a, b) => a - b)
      print(
        label.padEnd(36),
        `${(percentile(ours, 50) / percentile(theirs, 50)).toFixed(2)}x`.padStart(14),
        `${(mean(ours) / mean(theirs)).toFixed(2)}x`.padStart(15),
      )
    }
  }
  ourDb.close()
  theirDb.close()
}

/**
 * `sangam search` as a user runs it: this build's CLI, and the baseline's where given, interleaved
 * on one project whose store is a copy of the bench's, with `sangam --version` as the floor.
 */
async function endToEnd(pairs: readonly string[]): Promise<void> {
  await using home = tmpDir('sangam-bench-search-')
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  for (const path of [database, `${database}-wal`, `${database}-shm`]) rmSync(path, { force: true })
  copyFileSync(file, database)
  const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js')
  const entries: [string, string][] = [['this build', cli]]
  if (baseline !== null) entries.push(['baseline', join(baseline, 'dist', 'cli', 'main.js')])
  const starts = 30
  const samples = new Map<string, { ms: number[]; cpu: number[] }>()
  const run = async (label: string, args: readonly string[]): Promise<void> => {
    const timed = await timedNode(args, { cwd: repo.path, env: env as NodeJS.ProcessEnv, mustSucceed: true })
    const sample = samples.get(label) ?? { ms: [], cpu: [] }
    sample.ms.push(timed.ms)
    if (timed.cpuMs !== null) sample.cpu.push(timed.cpuMs)
    samples.set(label, sample)
  }
  for (const [, entry] of entries) await run('warm-up', [entry, 'search', pairs[0] ?? 'x', '--json'])
  for (let i = 0; i < starts; i++) {
    for (const [name, entry] of entries) {
      await run(`${name}: sangam --version`, [entry, '--version'])
      await run(`${name}: sangam search`, [
        entry,
        'search',
        ...(pairs[i % pairs.length] ?? 'x').split(' '),
        '--json',
      ])
    }
  }
  print(
    `sangam search end to end (common + rare, ${starts} runs each, interleaved; load average ${loadavg()[0]?.toFixed(1)}); CPU is ${hasGnuTime ? "GNU time's user + system" : 'not measured here (no GNU time)'}`,
  )
  print('command'.padEnd(36), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'cpu mean'.padStart(9))
  const mean = (values: readonly number[]): number =>
    values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
  for (const [label, sample] of samples) {
    if (label === 'warm-up') continue
    const ms = [...sample.ms].sort((a, b) => a - b)
    print(
      label.padEnd(36),
      percentile(ms, 50).toFixed(1).padStart(8),
      percentile(ms, 95).toFixed(1).padStart(8),
      mean(sample.cpu).toFixed(1).padStart(9),
    )
  }
  if (baseline === null) return
  print('this build / baseline'.padEnd(36), 'p50'.padStart(8), 'p95'.padStart(8), 'cpu mean'.padStart(9))
  for (const command of ['sangam --version', 'sangam search']) {
    const ours = samples.get(`this build: ${command}`)
    const theirs = samples.get(`baseline: ${command}`)
    if (ours === undefined || theirs === undefined) continue
    const p = (values: readonly number[], at: number): number =>
      percentile(
        [...values].sort((a, b) => a - b),
        at,
      )
    print(
      command.padEnd(36),
      `${(p(ours.ms, 50) / p(theirs.ms, 50)).toFixed(2)}x`.padStart(8),
      `${(p(ours.ms, 95) / p(theirs.ms, 95)).toFixed(2)}x`.padStart(8),
      `${(mean(ours.cpu) / mean(theirs.cpu)).toFixed(2)}x`.padStart(9),
    )
  }
}

interface BaselineRow {
  readonly p50: number
  readonly p95: number
  readonly cpuP50: number
}

/** The baseline checkout's bench/search.ts on the same store; its rows by label. */
function runBaseline(checkout: string): Map<string, BaselineRow> {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(checkout, 'bench', 'search.ts'), String(eventCount)],
    { cwd: checkout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  if (result.status !== 0) throw new Error(`the baseline's bench/search.ts exited ${result.status}`)
  const rows = new Map<string, BaselineRow>()
  for (const line of result.stdout.split('\n')) {
    const match = /^(.+?)\s{2,}([\d.]+)\s+([\d.]+)\s+[\d.]+x\s+([\d.]+)\s+[\d.]+$/.exec(line)
    if (match === null) continue
    rows.set(match[1] ?? '', { p50: Number(match[2]), p95: Number(match[3]), cpuP50: Number(match[4]) })
  }
  return rows
}
