/**
 * The dashboard's server with 20 agents and 10,000 events (the Now fixture), as
 * `sangam ui` runs it (the compiled CLI, a real process, real HTTP):
 *
 * - each API read a page makes (`/api/now`, the first timeline page, a timeline search, the
 *   charts), median and p95 over the runs; the baseline, in the same run, is the same HTTP round
 *   trip answered by the gate alone (a request without the token: 401);
 * - a store commit by another connection → its `change` on an open `/api/events` stream, p95
 *   (target for the page's whole path: < 1 s); the baseline is the commit itself;
 * - the server's RSS after all of it (target < 150 MB), beside an idle `node` in the same run.
 *
 * The page's own figures (first paint, visible in the browser) are the client's bench.
 *
 *   npm run build && node --import tsx bench/ui-server.ts [runs] [commits]
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { databasePath } from '../src/config/data-paths.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { writePresence } from '../src/room/store/presence-table.ts'
import { EventStore } from '../test/helpers/memory-fixture.ts'
import { isolatedEnv, runCliJson } from '../test/helpers/run-cli.ts'
import { tmpGitRepo } from '../test/helpers/tmp-git-repo.ts'
import { startUi } from '../test/helpers/ui-process.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const runs = Number(process.argv[2] ?? 30)
const commits = Number(process.argv[3] ?? 100)
const agents = 20
const events = 10_000

const words = [
  'lease',
  'board',
  'merge',
  'fixture',
  'expiry',
  'timeline',
  'chart',
  'socket',
  'token',
  'worktree',
]

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith('VmRSS:'))
  return Number(line?.replace(/\D+/g, '') ?? Number.NaN) / 1024
}

async function timed(run: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const at = performance.now()
    await run()
    times.push(performance.now() - at)
  }
  return times.sort((a, b) => a - b)
}

const figure = (sorted: readonly number[]): string =>
  `median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`

async function main(): Promise<void> {
  await using repo = tmpGitRepo({ commit: true })
  const home = repo.path.replace(/\/repo$/, '')
  const env = isolatedEnv(home, { SANGAM_USER: 'asha@example.com' })
  const init = await runCliJson<{ projectId: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const db = openDatabaseFile(databasePath(join(home, '.sangam'), init.projectId))
  const now = Date.now()
  const store = new EventStore(db)
  const kinds = ['human', 'assistant', 'tool_call', 'tool_output', 'thinking'] as const
  for (let start = 0; start < events; start += 1000) {
    store.add(
      ...Array.from({ length: 1000 }, (_, j) => {
        const i = start + j
        const agent = i % agents
        return {
          sessionId: `session-${agent}`,
          vendor: agent % 2 === 0 ? ('claude' as const) : ('codex' as const),
          kind: kinds[i % kinds.length],
          author: `human-${agent % 4}@example.com`,
          cwd: repo.path,
          text: `event ${i}: ${words[i % words.length]} ${words[(i * 7) % words.length]} and the ${words[(i * 3) % words.length]} again`,
          at: now - (events - i) * 8_000,
        }
      }),
    )
  }
  for (let agent = 0; agent < agents; agent++) {
    writePresence(db, {
      vendor: agent % 2 === 0 ? 'claude' : 'codex',
      sessionId: `session-${agent}`,
      handle: `agent-${agent}`,
      handleClaimed: false,
      human: `human-${agent % 4}@example.com`,
      worktree: repo.path,
      branch: 'main',
      machine: 'bench-machine',
      state: agent % 3 === 0 ? 'idle' : 'online',
      updatedAt: now - agent * 1000,
      firstSeenAt: now - 86_400_000 + agent,
      change: 1,
    })
  }

  await using ui = await startUi(['ui', '--no-open', '--json'], { cwd: repo.path, env })
  const get = async (path: string, anonymous = false): Promise<void> => {
    const answer = await ui.request(path, { anonymous })
    if (answer.status !== (anonymous ? 401 : 200)) throw new Error(`${path}: ${answer.status} ${answer.body}`)
  }
  await get('/api/now')
  const gate = await timed(() => get('/api/now', true))
  const reads: [string, number[]][] = []
  for (const path of ['/api/now', '/api/timeline', '/api/timeline?q=lease%20expiry', '/api/charts'])
    reads.push([path, await timed(() => get(path))])

  const stream = ui.stream()
  await stream.waitFor((event) => event.event === 'hello')
  const insert = db.prepare(
    `INSERT INTO room_message (id, kind, text, sender, human, recipients, at) VALUES (?, 'message', 'bench', 'asha', 'asha', '[]', ?)`,
  )
  const lags: number[] = []
  const writes: number[] = []
  for (let i = 0; i < commits; i++) {
    const seen = stream.events.length
    const at = performance.now()
    insert.run(`msg-bench-${i}`, now + i)
    writes.push(performance.now() - at)
    await stream.waitFor(() => stream.events.length > seen, 5000)
    lags.push(performance.now() - at)
    // A random phase against the 200 ms poll, as a real commit has.
    await sleep(20 + Math.floor(Math.random() * 200))
  }
  stream.close()
  lags.sort((a, b) => a - b)
  writes.sort((a, b) => a - b)
  const serverRss = rssMb(ui.child.pid ?? 0)
  const idle = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  await sleep(500)
  const idleRss = rssMb(idle.pid ?? 0)
  idle.kill()
  db.close()

  const base = percentile(gate, 50)
  const lines = [
    `the dashboard's server: ${agents} agents, ${events.toLocaleString('en')} events, ${runs} runs per read`,
    `  baseline: the gate's 401 (HTTP round trip) ${figure(gate)}`,
    ...reads.map(
      ([path, times]) =>
        `  GET ${path}: ${figure(times)}  (${(percentile(times, 50) / base).toFixed(1)}× the baseline)`,
    ),
    `  commit → change on an open stream, ${commits} commits: ${figure(lags)}, max ${(lags.at(-1) ?? 0).toFixed(1)} ms  (page target p95 < 1 s; the feed polls every 200 ms)`,
    `  baseline: the commit itself ${figure(writes)}`,
    `  server RSS ${serverRss.toFixed(1)} MB (target < 150 MB); an idle node in the same run ${idleRss.toFixed(1)} MB`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

await main()
