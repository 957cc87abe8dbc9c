/**
 * Wake in place with the real CLIs: tag posted → turn started, p50/p95, for a live idle Claude Code
 * 2.1.332 session (its TUI in tmux, woken through its wake waiter) and, in the same run as its
 * peer, a live idle Codex 0.171.0 session under `sangam codex` (woken over its app-server socket).
 * `sangam up` delivers; the tags alternate between the two sessions, so both see the same load.
 *
 * Each tag is timed three ways, from the message's own `at` (the poster's clock as it committed;
 * one host, one clock):
 * - sangam's part: until the session took the turn (the ledger's wake turn ended: the waiter
 *   answered, or the app-server accepted `turn/start`);
 * - the CLI's own reaction: from then until the CLI's model request of the new turn reached the
 *   fake model server;
 * - the whole: tag posted → that model request.
 *
 * The real CLIs need the agent suite's offline world (network and mount namespaces, as root): this
 * file re-runs itself inside one, as `npm run test:agents` does, and says so plainly when it cannot.
 *
 *   npm run build && ROUNDS=10 node --import tsx bench/claude-wake.ts
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  agentClisDir,
  checkAgentClis,
  claudeVersion,
  codexVersion,
  ensureAgentClis,
} from '../test/agents/agent-clis.ts'
import { type AgentLab, openAgentLab } from '../test/agents/agent-lab.ts'
import { openClaudeTui } from '../test/agents/claude-tui.ts'
import type { FakeModelServer } from '../test/agents/fake-model-server.ts'
import { startLabDaemon, until } from '../test/agents/lab-daemon.ts'
import { isIsolated, preflight, runInNamespace, startDnsSink } from '../test/agents/network-namespace.ts'
import { openTmuxPane } from '../test/agents/tmux-pane.ts'
import { cliEntry } from '../test/helpers/run-cli.ts'
import { tmpDir } from '../test/helpers/tmp-git-repo.ts'
import { percentile } from './helpers/transcript-sentences.ts'

const rounds = Number(process.env.ROUNDS ?? process.env.N ?? 10)
if (!(rounds >= 1)) throw new Error('ROUNDS must be a positive number')
/** `room.delivery-cooldown`'s least value. */
const cooldownMs = 1000

interface Sessions {
  sessions: { id: string; vendor: string; handle: string | null; delivery: string }[]
}

interface Ledger {
  deliveries: { messageId: string; state: string; reason: string | null; turnId: number | null }[]
  turns: { id: number; channel: string; endedAt: string | null }[]
}

interface Timing {
  readonly sangam: number
  readonly cli: number
  readonly whole: number
  /** ms epoch when the session took the turn (the wake turn's end in the ledger). */
  readonly takenAt: number
}

async function main(): Promise<number> {
  if (process.argv.includes('--inside')) return inside()
  const check = preflight()
  if (!check.ok) {
    process.stdout.write(
      `claude-wake: not run: ${check.reason} (the real CLIs run only offline, in namespaces)\n`,
    )
    return 1
  }
  const dir = agentClisDir(process.env)
  const clis = ensureAgentClis(dir, (line) => process.stderr.write(`claude-wake: ${line}\n`))
  await using scratch = tmpDir('sangam-bench-wake-version-')
  checkAgentClis(clis, scratch.path)
  return runInNamespace([process.execPath, '--import', 'tsx', import.meta.filename, '--inside'], {
    ...process.env,
    SANGAM_AGENT_CLIS: dir,
  })
}

async function inside(): Promise<number> {
  if (!isIsolated()) throw new Error('--inside, but this process is not in an isolated network namespace')
  const dns = await startDnsSink()
  try {
    await using lab = await openAgentLab()
    // The Codex TUI's settings first (the repository trusted): install-hooks then asks Codex about them.
    const codexEnv = lab.codexTui()
    await lab.sangamJson(['install-hooks'])
    // A script's post is `unknown` (D270), counted against the loop budget: raised past the tags.
    await lab.sangamJson(['option-set', 'room.delivery-loop-budget', String(rounds + 1)])
    // The least cooldown between turns of a session.
    await lab.sangamJson(['option-set', 'room.delivery-cooldown', String(cooldownMs / 1000)])
    lab.anthropic.script([{ text: 'CLAUDE-REPLY done.' }])
    lab.openai.script([{ text: 'CODEX-REPLY done.' }])
    await using claudePane = openClaudeTui(lab, 'You are the Claude Code session.')
    const codexDir = join(lab.home, 'codex-tui')
    mkdirSync(codexDir)
    await using codexPane = openTmuxPane(
      codexDir,
      lab.repo.path,
      `${process.execPath} ${cliEntry} codex "You are the Codex session."`,
      codexEnv,
    )
    const panes = async () =>
      `claude:\n${claudePane.screen()}\ncodex:\n${codexPane.screen()}\n${lab.heartbeats()}`
    const claude = await sessionTold(lab.anthropic, 'You are the Claude Code session.', panes)
    const codex = await sessionTold(lab.openai, 'You are the Codex session.', panes)
    await using daemon = await startLabDaemon(lab)
    const context = async () =>
      `daemon:\n${daemon.output()}\nclaude:\n${claudePane.screen()}\ncodex:\n${codexPane.screen()}`
    const timings: Record<'claude' | 'codex', Timing[]> = { claude: [], codex: [] }
    // The cooldown (1 s from the last turn's start) must have passed before each tag, so no figure
    // holds a wait for it: sangam's part is the channel's, not the policy's.
    const cooled: Record<'claude' | 'codex', number> = { claude: 0, codex: 0 }
    for (let round = 1; round <= rounds; round++) {
      for (const [vendor, sessionId, server] of [
        ['claude', claude, lab.anthropic],
        ['codex', codex, lab.openai],
      ] as const) {
        if (Date.now() < cooled[vendor]) await sleep(cooled[vendor] - Date.now())
        const timing = await tagOnce(lab, vendor, sessionId, server, `BENCH-${vendor}-${round}`, context)
        timings[vendor].push(timing)
        cooled[vendor] = timing.takenAt + cooldownMs + 100
      }
    }
    process.stdout.write(`${report(timings).join('\n')}\n`)
  } finally {
    await dns.close()
  }
  if (dns.lookups.length > 0) {
    process.stderr.write(
      `claude-wake: the CLIs tried to reach the network: ${[...new Set(dns.lookups)].join(', ')}\n`,
    )
    return 1
  }
  return 0
}

/** The session whose first prompt was `prompt`, once the model was asked. */
function sessionTold(
  server: FakeModelServer,
  prompt: string,
  context: () => Promise<string>,
): Promise<string> {
  return until(
    `the session told "${prompt}"`,
    async () => server.turns().find((turn) => turn.prompt.includes(prompt))?.sessionId ?? null,
    120_000,
    context,
  )
}

/** One tag to an idle, wakeable session, timed; returns once its turn has reached the model. */
async function tagOnce(
  lab: AgentLab,
  vendor: 'claude' | 'codex',
  sessionId: string,
  server: FakeModelServer,
  note: string,
  context: () => Promise<string>,
): Promise<Timing> {
  const handle = await until(
    `${vendor} at rest and wakeable`,
    async () => {
      const view = (await lab.sangamJson<Sessions>(['sessions'])).sessions.find((s) => s.id === sessionId)
      return view?.delivery === 'live' ? view.handle : null
    },
    120_000,
    context,
  )
  const posted = await lab.sangamJson<{ message: { id: string; at: number } }>(
    ['post', '--to', `@${handle}`, `${note} please look`],
    { SANGAM_USER: 'bob@example.com' },
  )
  const request = await until(
    `the model request of ${note}`,
    async () => {
      const found = server.requests.find((r) => r.kind === 'main' && r.turn?.prompt.includes(note))
      if (found !== undefined) return found
      // A tag refused or failed never reaches the model: say why then rather than at the timeout.
      // Asked only once the request is late, so no CLI runs beside the measured path.
      if (Date.now() - posted.message.at < 10_000) return null
      const row = (await lab.sangamJson<Ledger>(['deliveries'])).deliveries.find(
        (candidate) => candidate.messageId === posted.message.id,
      )
      if (row?.state === 'refused' || row?.state === 'failed')
        throw new Error(`${note} was ${row.state}: ${row.reason}`)
      return null
    },
    120_000,
    context,
  )
  const taken = await until(
    `the wake turn of ${note} in the ledger`,
    async () => {
      const ledger = await lab.sangamJson<Ledger>(['deliveries'])
      const turnId = ledger.deliveries.find((row) => row.messageId === posted.message.id)?.turnId
      const turn = ledger.turns.find((candidate) => candidate.id === turnId)
      if (turn !== undefined && turn.channel !== 'wake')
        throw new Error(`${note} went through ${turn.channel}`)
      return turn?.endedAt ? Date.parse(turn.endedAt) : null
    },
    60_000,
    context,
  )
  return {
    sangam: taken - posted.message.at,
    cli: request.at - taken,
    whole: request.at - posted.message.at,
    takenAt: taken,
  }
}

const parts = [
  ['tag posted → session took the turn (sangam)', 'sangam'],
  ['took the turn → model request (the CLI)', 'cli'],
  ['tag posted → model request (whole)', 'whole'],
] as const

/**
 * The figures, Claude Code's as ratios against Codex's wake measured in the same run (the baseline:
 * the channel sangam already had), and sangam's part against the target's 1 s.
 */
function report(timings: Record<'claude' | 'codex', readonly Timing[]>): string[] {
  const out = [
    `wake in place, real CLIs (Claude Code ${claudeVersion}, Codex ${codexVersion}), ${rounds} tags each, alternating, one machine, sangam up delivering; ratios: Claude Code / Codex (this run)`,
  ]
  for (const vendor of ['claude', 'codex'] as const) {
    out.push(
      vendor === 'claude'
        ? '  Claude Code TUI (wake waiter):'
        : '  Codex under sangam codex (app-server), the baseline:',
    )
    for (const [label, part] of parts) {
      const values = sorted(timings[vendor].map((t) => t[part]))
      const base = sorted(timings.codex.map((t) => t[part]))
      const ratio = (p: number): string =>
        vendor === 'claude' ? ` (${(percentile(values, p) / percentile(base, p)).toFixed(2)}×)` : ''
      out.push(
        `    ${label.padEnd(44)} p50 ${ms(values, 50)}${ratio(50)}  p95 ${ms(values, 95)}${ratio(95)}  max ${ms(values, 100)}  (n=${values.length})`,
      )
    }
  }
  const claudeSangam = sorted(timings.claude.map((t) => t.sangam))
  out.push(
    `  target: Claude Code's tag → turn p95 under 1 s plus the CLI's own reaction: sangam's part p95 ${ms(claudeSangam, 95)} = ${(percentile(claudeSangam, 95) / 1000).toFixed(2)}× 1 s`,
  )
  return out
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((x, y) => x - y)
}

function ms(values: readonly number[], p: number): string {
  return `${percentile(values, p).toFixed(0).padStart(5)} ms`
}

process.exitCode = await main()
