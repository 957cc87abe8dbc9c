/**
 * Live lag: with `sangam up` running (the compiled CLI, a real process), 200 appends of a human
 * line to a Claude Code transcript, each timed from the append to the moment its unique token is
 * found by a full-text query on the replica. The baseline, measured in the same run, is the same
 * query for a token that is already stored: what the polling itself costs. Target p95 < 250 ms.
 *
 *   npm run build && node --import tsx bench/live-lag.ts [appends]
 */
import { appendFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { databasePath } from '../src/config/data-paths.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { captureWorld, claudeHuman } from '../test/helpers/capture-transcripts.ts'
import { startUp } from '../test/helpers/up-process.ts'

const appends = Number(process.argv[2] ?? 200)

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

async function main(): Promise<void> {
  await using world = await captureWorld()
  const cwd = world.repo.path
  const transcript = world.claude(
    'lag.jsonl',
    claudeHuman({ cwd, session: 'lag', text: 'warm up line alreadystoredtoken' }),
  )
  await using up = startUp([], { cwd, env: world.env })
  await up.waitFor('ready')
  const db = openDatabaseFile(databasePath(`${world.home.path}/.sangam`, world.projectId), { readonly: true })
  const find = db.prepare('SELECT rowid FROM event_fts WHERE event_fts MATCH ? LIMIT 1')
  const lags: number[] = []
  const polls: number[] = []
  try {
    for (let i = 0; i < appends; i++) {
      const token = `lagtoken${i}q${Math.random().toString(36).slice(2, 10)}`
      const startedAt = performance.now()
      appendFileSync(transcript, claudeHuman({ cwd, session: 'lag', text: `message ${i} carries ${token}` }))
      while (find.get(token) === undefined) {
        if (performance.now() - startedAt > 10_000) throw new Error(`append ${i} never became searchable`)
        await sleep(1)
      }
      lags.push(performance.now() - startedAt)
      const pollAt = performance.now()
      find.get('alreadystoredtoken')
      polls.push(performance.now() - pollAt)
      await sleep(20)
    }
  } finally {
    db.close()
  }
  lags.sort((a, b) => a - b)
  polls.sort((a, b) => a - b)
  const lines = [
    `live lag: ${appends} appends to a transcript tailed by sangam up, append → searchable`,
    `  p50 ${percentile(lags, 50).toFixed(1)} ms, p95 ${percentile(lags, 95).toFixed(1)} ms, max ${(lags.at(-1) ?? 0).toFixed(1)} ms  (target p95 < 250 ms)`,
    `  baseline: one FTS query for a stored token, p50 ${percentile(polls, 50).toFixed(2)} ms, p95 ${percentile(polls, 95).toFixed(2)} ms; polling every 1 ms`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

await main()
