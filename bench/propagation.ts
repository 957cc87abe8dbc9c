/**
 * Propagation: two machines (own HOME, SANGAM_HOME, clone) attached to one `sangam serve`, both
 * running `sangam up` (the compiled CLI, real processes). 200 human turns appended to a Claude Code
 * transcript on A, each timed from the append until its unique token is found by a full-text query
 * on B's replica. The baseline, measured in the same run for the same appends, is the local live
 * lag: append → searchable on A. Target: propagation p95 < 1 s on loopback.
 *
 *   npm run build && node --import tsx bench/propagation.ts [appends]
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { runCli } from '../test/helpers/run-cli.ts'
import { syncWorld } from '../test/helpers/sync-world.ts'

const appends = Number(process.argv[2] ?? 200)

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

function describe(label: string, values: number[]): string {
  const sorted = [...values].sort((x, y) => x - y)
  const p50 = percentile(sorted, 50)
  const p95 = percentile(sorted, 95)
  return `  ${label}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`
}

async function main(): Promise<void> {
  await using world = await syncWorld()
  const { a, b } = world
  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  await b.cli(['join'], line)
  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])
  a.say('bench', 'warm up line alreadystoredtoken')
  const dbA = openDatabaseFile(a.database, { readonly: true })
  const dbB = openDatabaseFile(b.database, { readonly: true })
  const onA = dbA.prepare('SELECT rowid FROM event_fts WHERE event_fts MATCH ? LIMIT 1')
  const onB = dbB.prepare('SELECT rowid FROM event_fts WHERE event_fts MATCH ? LIMIT 1')
  while (onB.get('alreadystoredtoken') === undefined) await sleep(10)
  const local: number[] = []
  const propagation: number[] = []
  try {
    for (let i = 0; i < appends; i++) {
      const token = `proptoken${i}q${Math.random().toString(36).slice(2, 10)}`
      const startedAt = performance.now()
      a.say('bench', `message ${i} carries ${token}`)
      let seenOnA: number | null = null
      while (onB.get(token) === undefined) {
        if (seenOnA === null && onA.get(token) !== undefined) seenOnA = performance.now() - startedAt
        if (performance.now() - startedAt > 20_000) throw new Error(`append ${i} never reached B`)
        await sleep(1)
      }
      propagation.push(performance.now() - startedAt)
      local.push(seenOnA ?? performance.now() - startedAt)
      await sleep(20)
    }
  } finally {
    dbA.close()
    dbB.close()
  }
  const ratio =
    percentile(
      [...propagation].sort((x, y) => x - y),
      95,
    ) /
    percentile(
      [...local].sort((x, y) => x - y),
      95,
    )
  const lines = [
    `propagation: ${appends} human turns appended on A (sangam up on A and on B, one sangam serve, loopback)`,
    describe('A → searchable on B', propagation),
    describe('baseline, A → searchable on A (local live lag, same appends)', local),
    `  p95 ratio ${ratio.toFixed(2)}× the local lag (target: propagation p95 < 1 s)`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

try {
  await main()
} finally {
  killAllServes()
}
