/**
 * A team starting together: N machines (own HOME, SANGAM_HOME and clone), one `sangam serve`, and
 * every machine's `sangam up` started at once, over a few rounds. Prints the wall time from the
 * starts until every daemon is subscribed ("all connected"), the connections dropped or retried on
 * the way (`sync-offline` statuses, from the first start until 3 s after all connected), and, on
 * Linux, the CPU each daemon used until it was connected, which does not move with the machine's
 * load the way the wall time does (both are printed with the load average).
 *
 *   npm run build && node --import tsx bench/team-connect.ts [machines] [rounds]
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { runCli } from '../test/helpers/run-cli.ts'
import { syncWorld } from '../test/helpers/sync-world.ts'
import type { UpProcess } from '../test/helpers/up-process.ts'

const count = Number(process.argv[2] ?? 10)
const rounds = Number(process.argv[3] ?? 3)

/** CPU milliseconds a process has used so far (user + system), or NaN off Linux. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return Number.NaN
  }
}

const median = (values: readonly number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? Number.NaN

await using world = await syncWorld({ machines: count })
const [first, ...others] = world.machines
if (first === undefined) throw new Error('no machine')
await first.cliJson(['init', '--no-mcp', '--server', world.server.url])
const line = (await runCli(['connection'], { cwd: first.repo, env: first.env })).stdout.trim()
for (const machine of others) {
  const joined = await machine.cli(['join', line])
  if (joined.code !== 0) throw new Error(joined.stderr)
}

const times: number[] = []
const drops: number[] = []
const cpu: number[] = []
const loads: number[] = []
for (let round = 0; round < rounds; round++) {
  loads.push(loadavg()[0] ?? Number.NaN)
  const started = performance.now()
  const ups: UpProcess[] = world.machines.map((machine) => machine.up())
  try {
    await Promise.all(
      ups.map(async (up) => {
        await up.waitFor('sync-connected', 300_000)
        cpu.push(cpuMs(up.child.pid))
      }),
    )
    times.push(performance.now() - started)
    // What drops right after connecting counts too: give the pushes of the start a moment.
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const offline = ups.flatMap((up) => up.statuses.filter((status) => status.type === 'sync-offline'))
    drops.push(offline.length)
    for (const status of offline) process.stderr.write(`${JSON.stringify(status)}\n`)
  } finally {
    await Promise.all(ups.map((up) => up.stop()))
  }
}
const seconds = (ms: number): string => (ms / 1000).toFixed(1)
process.stdout.write(
  `${count} daemons starting together on one sangam serve, ${rounds} rounds (load average ${loads.map((l) => l.toFixed(1)).join(', ')} on ${(await import('node:os')).availableParallelism()} cores):\n` +
    `  all connected in ${times.map(seconds).join(', ')} s (median ${seconds(median(times))} s)\n` +
    `  dropped or retried connections: ${drops.join(', ')}\n` +
    `  CPU per daemon until connected: median ${median(cpu).toFixed(0)} ms (all daemons: ${seconds(cpu.reduce((sum, ms) => sum + ms, 0) / rounds)} s a round)\n`,
)
