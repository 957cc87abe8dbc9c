/**
 * Post on machine A → visible in machine B's room, through a local `sangam serve` (workerd):
 * two data dirs and two clones, each running `sangam up`. Each sample runs `sangam post` on A and
 * polls B's replica (read-only, every 5 ms) until the message is there, so it counts the post's
 * own process, A's daemon noticing the queued record (it polls every 250 ms), the push, the
 * server, and B's socket and apply. Prints median and p95; the target is p95 < 1 s. chat-room
 * has no cross-machine room, so there is no peer figure to set beside it.
 *
 *   npm run build && node --import tsx bench/room-cross-machine.ts [samples]
 */
import { openConnection } from '../src/store/connection.ts'
import { runCli } from '../test/helpers/run-cli.ts'
import { syncWorld } from '../test/helpers/sync-world.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const samples = Number(process.argv[2] ?? 20)

await using world = await syncWorld()
const { a, b } = world
await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout.trim()
const joined = await b.cli(['join', line])
if (joined.code !== 0) throw new Error(joined.stderr)
await using upA = a.up()
await using upB = b.up()
await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])

const replicaB = openConnection(b.database, { readOnly: true, timeoutMs: 5000 })
const visible = replicaB.prepare('SELECT 1 FROM room_message WHERE id = ?')
const times: number[] = []
const postOnly: number[] = []
try {
  for (let i = -1; i < samples; i += 1) {
    const started = performance.now()
    const { message } = await a.cliJson<{ message: { id: string } }>(['post', `cross-machine sample ${i}`])
    const posted = performance.now()
    const deadline = started + 30_000
    while (visible.get(message.id) === undefined) {
      if (performance.now() > deadline) throw new Error(`sample ${i} not on B after 30 s`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    // The first sample warms the page cache and the server's object; it is not counted.
    if (i >= 0) {
      times.push(performance.now() - started)
      postOnly.push(posted - started)
    }
  }
} finally {
  replicaB.close()
}
times.sort((x, y) => x - y)
postOnly.sort((x, y) => x - y)
const p95 = percentile(times, 95)
process.stdout.write(
  `post on A → in B's room: median ${percentile(times, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${samples} samples (target p95 < 1 s: ${p95 < 1000 ? 'met' : 'missed'})\n` +
    `of which the post command itself: median ${percentile(postOnly, 50).toFixed(0)} ms\n` +
    "peer: chat-room 0.8.0 has no cross-machine room (one machine's SQLite); no ratio\n",
)
