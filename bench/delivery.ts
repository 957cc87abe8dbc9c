import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { openConnection } from '../src/store/connection.ts'
import { claudeHuman, codexHuman, codexMeta } from '../test/helpers/capture-transcripts.ts'
import { fakeAppServer } from '../test/helpers/fake-app-server.ts'
import { isolatedEnv, runCli, runCliJson } from '../test/helpers/run-cli.ts'
import { syncWorld } from '../test/helpers/sync-world.ts'
import { tmpDir, tmpGitRepo } from '../test/helpers/tmp-git-repo.ts'
import { startUp } from '../test/helpers/up-process.ts'
import { runAgentHook } from '../test/hooks-agent-run.ts'
import { idleCpu } from './helpers/idle-cpu.ts'
import { percentile } from './helpers/transcript-sentences.ts'
import { vendorStartup } from './helpers/vendor-startup.ts'

const rounds = Number(process.env.ROUNDS ?? process.env.N ?? 20)
const idleSeconds = Number(process.env.IDLE_SECONDS ?? 30)
if (!(rounds >= 1) || !(idleSeconds >= 1)) throw new Error('ROUNDS and IDLE_SECONDS must be positive numbers')

type Env = Record<string, string | undefined>

interface Place {
  readonly repo: string
  readonly env: Env
  readonly database: string
}

/** `claude` and `codex` as shell scripts: `--help` says nothing special (so resume is the channel). */
function writeFakeVendors(bin: string): void {
  mkdirSync(bin, { recursive: true })
  for (const vendor of ['claude', 'codex']) {
    const path = join(bin, vendor)
    writeFileSync(
      path,
      [
        '#!/bin/sh',
        `case "$1" in --help) echo "Usage: ${vendor} [options]"; exit 0;; agents) echo "[]"; exit 0;; esac`,
        'echo "$(date +%s%3N) $*" >> "$BENCH_TURN_LOG"',
        'cat > /dev/null',
        '',
      ].join('\n'),
    )
    chmodSync(path, 0o755)
  }
}

/** When each session's fake vendor started (ms epoch), from the turn log. */
function startedTurns(log: string): Map<string, number> {
  const started = new Map<string, number>()
  if (!existsSync(log)) return started
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const [at, ...argv] = line.split(' ')
    // `--print --resume <id>` or `exec resume --all <id> -`: the id is the token with dashes.
    const id = argv.find((token) => /^[0-9a-f]{8}-/.test(token))
    if (at !== undefined && id !== undefined && !started.has(id)) started.set(id, Number(at))
  }
  return started
}

async function hook(place: Place, host: 'claude' | 'codex', name: string, sessionId: string, env: Env = {}) {
  const run = await runAgentHook(
    host,
    {
      session_id: sessionId,
      transcript_path: null,
      cwd: place.repo,
      hook_event_name: name,
      prompt: 'go',
      source: 'startup',
      ...(name === 'SessionEnd' ? { reason: 'other' } : {}),
    },
    { cwd: place.repo, env: { ...place.env, ...env } },
  )
  if (run.code !== 0) throw new Error(`${host} ${name} hook exited ${run.code}: ${run.stderr}`)
}

/**
 * `count` dormant Claude Code sessions (started, ended) and `count` idle Codex sessions living in
 * the app-server at `endpoint` (started, at rest), on `place`; their ids.
 */
async function makeSessions(
  place: Place,
  count: number,
  endpoint: string,
): Promise<{ claude: string[]; codex: string[] }> {
  const claude = Array.from({ length: count }, () => randomUUID())
  const codex = Array.from({ length: count }, () => randomUUID())
  const live = { SANGAM_CODEX_ENDPOINT: endpoint, SANGAM_CODEX_LAUNCHER: String(process.pid) }
  // Four at a time: two cores are shared, and each hook is a process.
  const jobs = [
    ...claude.map((id) => async () => {
      await hook(place, 'claude', 'SessionStart', id)
      await hook(place, 'claude', 'SessionEnd', id)
    }),
    ...codex.map((id) => async () => {
      await hook(place, 'codex', 'SessionStart', id, live)
      await hook(place, 'codex', 'Stop', id, live)
    }),
  ]
  for (let i = 0; i < jobs.length; i += 4) await Promise.all(jobs.slice(i, i + 4).map((job) => job()))
  return { claude, codex }
}

/** The handles of `ids` as `sessions` on `place` shows them (waiting until all are there). */
async function handlesOf(place: Place, ids: readonly string[]): Promise<Map<string, string>> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const listed = await runCliJson<{ sessions: { id: string; handle: string | null }[] }>(
      ['sessions', '--limit', '500'],
      { cwd: place.repo, env: place.env },
    )
    const handles = new Map<string, string>()
    for (const session of listed.sessions)
      if (session.handle !== null && ids.includes(session.id)) handles.set(session.id, session.handle)
    if (handles.size === ids.length) return handles
    if (Date.now() > deadline) throw new Error(`only ${handles.size} of ${ids.length} sessions have a handle`)
    await sleep(200)
  }
}

interface Latencies {
  /** message `at` → turn started, ms. */
  readonly turn: number[]
  /** the `sangam post` command's own wall time, ms. */
  readonly post: number[]
}

/**
 * One tag per session, in turn: post it on `poster`, wait for `startedAt(id)`. The first is a
 * warm-up (page cache, the server's object) and is not counted.
 */
async function tagEach(
  poster: Place,
  sessions: readonly string[],
  handles: ReadonlyMap<string, string>,
  startedAt: (id: string) => number | undefined,
  label: string,
): Promise<Latencies> {
  const db = openConnection(poster.database, { readOnly: true, timeoutMs: 5000 })
  const atOf = db.prepare('SELECT at FROM room_message WHERE id = ?')
  const turn: number[] = []
  const post: number[] = []
  try {
    for (const [index, id] of sessions.entries()) {
      // A random pause first: tags posted back to back lock onto the daemon's 250 ms poll and
      // would always meet it at the same phase.
      await sleep(Math.random() * 500)
      const began = performance.now()
      const posted = await runCli(
        ['post', '--to', `@${handles.get(id)}`, `${label} tag ${index}`, '--json'],
        {
          cwd: poster.repo,
          env: poster.env,
        },
      )
      if (posted.code !== 0) throw new Error(`post exited ${posted.code}: ${posted.stderr}`)
      const took = performance.now() - began
      const messageId = (JSON.parse(posted.stdout) as { message: { id: string } }).message.id
      const at = (atOf.get(messageId) as { at: number } | undefined)?.at
      if (at === undefined) throw new Error(`message ${messageId} is not in the poster's replica`)
      const deadline = Date.now() + 30_000
      let started = startedAt(id)
      while (started === undefined) {
        if (Date.now() > deadline) throw new Error(`${label}: no turn for tag ${index} within 30 s`)
        await sleep(2)
        started = startedAt(id)
      }
      if (index > 0) {
        turn.push(started - at)
        post.push(took)
      }
    }
  } finally {
    db.close()
  }
  return { turn, post }
}

function line(label: string, values: readonly number[]): string {
  const sorted = [...values].sort((x, y) => x - y)
  return `  ${label}: p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms (n=${sorted.length})`
}

const p95 = (values: readonly number[]): number =>
  percentile(
    [...values].sort((x, y) => x - y),
    95,
  )

// ---- one machine ------------------------------------------------------------------------------

async function oneMachine(out: string[]): Promise<{ resume: number[]; wake: number[] }> {
  await using home = tmpDir('sangam-bench-delivery-')
  await using repo = tmpGitRepo()
  const bin = join(home.path, 'fake-bin')
  writeFakeVendors(bin)
  const turnLog = join(home.path, 'turns.log')
  const env = isolatedEnv(home.path, {
    SANGAM_USER: 'asha@example.com',
    PATH: `${bin}:${process.env.PATH}`,
    BENCH_TURN_LOG: turnLog,
  })
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const place: Place = { repo: repo.path, env, database }
  // 20 sessions known to the daemon: 10 Claude Code and 10 Codex transcripts it captures.
  for (let i = 0; i < 10; i++) {
    const dir = join(home.path, '.claude', 'projects', '-bench')
    mkdirSync(dir, { recursive: true })
    const id = randomUUID()
    writeFileSync(join(dir, `${id}.jsonl`), claudeHuman({ cwd: repo.path, session: id, text: `idle ${i}` }))
    const day = join(home.path, '.codex', 'sessions', '2026', '11', '29')
    mkdirSync(day, { recursive: true })
    writeFileSync(
      join(day, `rollout-2026-11-29T10-00-0${i}-${randomUUID()}.jsonl`),
      codexMeta({ cwd: repo.path, id: randomUUID() }) + codexHuman(`idle codex ${i}`),
    )
  }
  await using up = startUp([], { cwd: repo.path, env })
  await up.waitFor('ready', 120_000)
  const known = await runCliJson<{ sessions: unknown[] }>(['sessions', '--limit', '500'], {
    cwd: repo.path,
    env,
  })
  const cpu = await idleCpu(up, idleSeconds)
  out.push(
    `daemon CPU while idle: sangam up knowing ${known.sessions.length} sessions (20 transcripts), over ${idleSeconds} s`,
    `  ${cpu.daemon.toFixed(2)} % of one core; baseline idle node -e "setInterval(()=>{},1000)" ${cpu.baseline.toFixed(2)} % (same window)`,
  )

  const socket = join(home.path, 'app-server.sock')
  const app = await fakeAppServer(socket)
  try {
    const sessions = await makeSessions(place, rounds + 1, app.endpoint)
    const handles = await handlesOf(place, [...sessions.claude, ...sessions.codex])
    const resume = await tagEach(
      place,
      sessions.claude,
      handles,
      (id) => startedTurns(turnLog).get(id),
      'resume',
    )
    const wake = await tagEach(place, sessions.codex, handles, (id) => app.woken.get(id)?.at, 'wake')
    out.push(
      `one machine, sangam up running, ${rounds} tags each (a distinct session per tag):`,
      line('resume (claude --print --resume), tag posted → fake claude started', resume.turn),
      line('wake in place (Codex app-server turn/start), tag posted → turn/start received', wake.turn),
      line("beside it: the sangam post command's own wall time (node start-up included)", resume.post),
    )
    return { resume: resume.turn, wake: wake.turn }
  } finally {
    await app.close()
  }
}

// ---- two machines -----------------------------------------------------------------------------

async function twoMachines(out: string[]): Promise<{ resume: number[]; wake: number[] }> {
  await using world = await syncWorld()
  const { a, b } = world
  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const connection = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout.trim()
  const joined = await b.cli(['join', connection])
  if (joined.code !== 0) throw new Error(joined.stderr)
  const bin = join(a.home, 'fake-bin')
  writeFakeVendors(bin)
  const turnLog = join(a.home, 'turns.log')
  const aEnv = { ...a.env, PATH: `${bin}:${process.env.PATH}`, BENCH_TURN_LOG: turnLog }
  const onA: Place = { repo: a.repo, env: aEnv, database: a.database }
  const onB: Place = { repo: b.repo, env: { ...b.env, SANGAM_USER: 'bob@example.com' }, database: b.database }
  await using upA = startUp([], { cwd: a.repo, env: aEnv })
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected', 60_000), upB.waitFor('sync-connected', 60_000)])
  const socket = join(a.home, 'app-server.sock')
  const app = await fakeAppServer(socket)
  try {
    const sessions = await makeSessions(onA, rounds + 1, app.endpoint)
    // B sees A's sessions (their presence) through the server before it can tag them.
    const handles = await handlesOf(onB, [...sessions.claude, ...sessions.codex])
    const resume = await tagEach(
      onB,
      sessions.claude,
      handles,
      (id) => startedTurns(turnLog).get(id),
      'resume',
    )
    const wake = await tagEach(onB, sessions.codex, handles, (id) => app.woken.get(id)?.at, 'wake')
    out.push(
      `two machines (own SANGAM_HOME and clone each, sangam up on both, one sangam serve on 127.0.0.1), tag posted on B for a session on A, ${rounds} tags each:`,
      line('resume on A, tag posted on B → fake claude started on A', resume.turn),
      line('wake in place on A, tag posted on B → turn/start received on A', wake.turn),
    )
    return { resume: resume.turn, wake: wake.turn }
  } finally {
    await app.close()
  }
}

async function main(): Promise<void> {
  const out: string[] = [
    `delivery: tag posted → turn started (ROUNDS=${rounds}, IDLE_SECONDS=${idleSeconds})`,
  ]
  const vendors = await vendorStartup()
  const startup = (name: string): string => {
    const ms = vendors.get(name)
    return ms === null || ms === undefined ? 'not installed' : `${ms.toFixed(0)} ms`
  }
  out.push(
    `vendor CLI start-up, time to first output of --version (median of 5, after one warm start): claude ${startup('claude')}, codex ${startup('codex')}`,
  )
  const local = await oneMachine(out)
  const remote = await twoMachines(out)
  const verdict = (label: string, values: readonly number[], vendor: string): string => {
    const own = p95(values)
    const cli = vendors.get(vendor)
    const total =
      cli === null || cli === undefined ? '' : `; with ${vendor}'s start-up ≈ ${(own + cli).toFixed(0)} ms`
    return `  ${label}: sangam's part p95 ${own.toFixed(0)} ms ${own < 1000 ? '< 1 s: met' : '≥ 1 s: missed'}${total}`
  }
  out.push(
    'target: tag → turn start p95 < 1 s plus the vendor CLI start-up',
    verdict('resume, one machine', local.resume, 'claude'),
    verdict('wake, one machine (no CLI starts: the turn begins in the live app-server)', local.wake, 'none'),
    verdict('resume, B → A', remote.resume, 'claude'),
    verdict('wake, B → A', remote.wake, 'none'),
  )
  process.stdout.write(`${out.join('\n')}\n`)
}

try {
  await main()
} finally {
  killAllServes()
}
