/**
 * Claim arbitration under contention: 50 claimers (separate processes running the compiled
 * LocalLeaseArbiter, each with its own SQLite connection to one replica) are told to claim at the
 * same moment, on overlapping patterns, round after round. Prints claim latency p50/p95 (measured
 * inside each claimer: the wait for the write lock plus the decision) beside the latency of one
 * uncontended claim measured in the same run, and the exactly-one-winner rate over the rounds,
 * which must be 100 %.
 *
 *   npm run build && node --import tsx bench/claims.ts [rounds] [claimers]
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { patternsOverlap } from '../src/leases/core/overlap.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const rounds = Number(process.argv[2] ?? 100)
const claimers = Number(process.argv[3] ?? 50)
const warmUpRounds = 3
const dist = join(import.meta.dirname, '..', 'dist')

/** Below `r<round>/`, every pair overlaps (each matches `a.ts`), written in different syntax. */
const shapes = ['**', 'a.ts', '*.ts', '{a,b}.ts', '[a-c].ts', '**/a.ts', 'a*', '?.ts']

interface Answer {
  readonly round: number
  readonly granted: boolean
  readonly ms: number
}

/**
 * One claimer: reads `<round> <pattern>` lines, claims as its own human, answers with a JSON line.
 * Plain compiled JavaScript, as the CLI, hooks and MCP server run.
 */
const claimerScript = `
import { createInterface } from 'node:readline'
const { openDatabaseFile } = await import(${JSON.stringify(pathToFileURL(join(dist, 'store', 'database.js')).href)})
const { LocalLeaseArbiter } = await import(${JSON.stringify(pathToFileURL(join(dist, 'services', 'leases', 'local-arbiter.js')).href)})
const [file, index] = process.argv.slice(1)
const db = openDatabaseFile(file)
const arbiter = new LocalLeaseArbiter(db, { now: () => Date.now() })
const actor = { human: 'dev' + index + '@x.dev', vendor: null, sessionId: null }
for (let i = 0; i < 20; i++) {
  await arbiter.claim({ actor, patterns: ['warm/' + index], reason: 'warm up', ttlMs: null })
  await arbiter.release({ actor, patterns: ['warm/' + index], forceReason: null })
}
process.stdout.write('ready\\n')
for await (const line of createInterface({ input: process.stdin })) {
  const [round, pattern] = line.split(' ')
  const started = performance.now()
  const result = await arbiter.claim({ actor, patterns: [pattern], reason: 'bench', ttlMs: null })
  const ms = performance.now() - started
  process.stdout.write(JSON.stringify({ round: Number(round), granted: result.granted, ms }) + '\\n')
}
db.close()
`

async function main(): Promise<void> {
  if (!existsSync(join(dist, 'services', 'leases', 'local-arbiter.js')))
    throw new Error('run npm run build first')
  for (const a of shapes) {
    for (const b of shapes)
      if (!patternsOverlap(`r/${a}`, `r/${b}`)) throw new Error(`${a} and ${b} do not overlap`)
  }
  const dir = mkdtempSync(join(tmpdir(), 'sangam-bench-claims-'))
  const file = join(dir, 'sangam.db')
  const children: Claimer[] = []
  try {
    const solo = startClaimer(file, 'solo')
    await solo.ready
    const baseline: number[] = []
    for (let i = 0; i < 200; i++) baseline.push((await solo.ask(`${-i} solo/${i}/**`)).ms)
    solo.stop()
    for (let index = 0; index < claimers; index++) children.push(startClaimer(file, String(index)))
    await Promise.all(children.map((child) => child.ready))
    const answers: Answer[] = []
    for (let round = 1; round <= warmUpRounds + rounds; round++) {
      const all = await Promise.all(
        children.map((child, i) => child.ask(`${round} r${round}/${shapes[i % shapes.length]}`)),
      )
      if (round > warmUpRounds) answers.push(...all)
    }
    report(answers, baseline)
  } finally {
    for (const child of children) child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

interface Claimer {
  readonly ready: Promise<void>
  ask(line: string): Promise<Answer>
  stop(): void
}

function startClaimer(file: string, index: string): Claimer {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--input-type=module', '-e', claimerScript, file, index],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  )
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk))
  const lines = createInterface({ input: child.stdout })
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = []
  lines.on('line', (line) => waiting.shift()?.resolve(line))
  child.on('exit', (code) => {
    for (const wait of waiting.splice(0)) wait.reject(new Error(`claimer ${index} exited with ${code}`))
  })
  const next = (): Promise<string> => new Promise((resolve, reject) => waiting.push({ resolve, reject }))
  return {
    ready: next().then(() => undefined),
    ask: (line) => {
      const answer = next().then((text) => JSON.parse(text) as Answer)
      child.stdin.write(`${line}\n`)
      return answer
    },
    stop: () => child.stdin.end(),
  }
}

function report(answers: readonly Answer[], baseline: readonly number[]): void {
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`)
  }
  const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b)
  const floor = [...baseline].sort((a, b) => a - b)
  const ms = (sorted: readonly number[], q: number): string => percentile(sorted, q).toFixed(2).padStart(7)
  const ratio = (q: number): string => `${(percentile(latencies, q) / percentile(floor, q)).toFixed(1)}×`
  const winners = new Map<number, number>()
  for (const answer of answers)
    winners.set(answer.round, (winners.get(answer.round) ?? 0) + (answer.granted ? 1 : 0))
  const exact = [...winners.values()].filter((count) => count === 1).length
  print(
    `claims: ${claimers} processes × ${rounds} rounds (after ${warmUpRounds} unmeasured), overlapping patterns`,
  )
  print(`uncontended claim      p50 ${ms(floor, 50)} ms   p95 ${ms(floor, 95)} ms   (${floor.length} claims)`)
  print(
    `claim, ${claimers} contending   p50 ${ms(latencies, 50)} ms (${ratio(50)})   p95 ${ms(latencies, 95)} ms (${ratio(95)})   (${latencies.length} claims)`,
  )
  print(
    `exactly one winner     ${exact}/${winners.size} rounds (${((100 * exact) / winners.size).toFixed(1)} %)`,
  )
  if (exact !== rounds) process.exitCode = 1
}

await main()
