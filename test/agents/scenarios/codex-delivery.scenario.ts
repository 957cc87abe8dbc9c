import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { DeliveriesJson } from '../../helpers/deliveries-json.ts'
import { cliEntry } from '../../helpers/run-cli.ts'
import type { TargetsJson } from '../../helpers/targets-json.ts'
import { agentClisDir, agentClisIn } from '../agent-clis.ts'
import { type AgentLab, openAgentLab, transcriptLines } from '../agent-lab.ts'
import { definedEnv } from '../defined-env.ts'
import type { CodexStep } from '../fake-openai.ts'
import { startLabDaemon, until } from '../lab-daemon.ts'
import { ledgerWhen, turnsEnded } from '../ledger-waits.ts'
import { openSangamCodex } from '../sangam-codex-pane.ts'

/**
 * Issue 10 with the real Codex 0.171.0 offline, past what codex-wake covers: a dormant session
 * (its `codex exec` ended) continued by the daemon through `codex exec resume`, or through
 * `codex queue --resume` while Codex's own app-server daemon listens; and two real sessions whose
 * (scripted) model makes each tag the other back in every turn, which the ledger's guards stop.
 */

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** A session's first `codex exec` turn, ended (so dormant), and its handle in the room. */
async function dormantSession(lab: AgentLab, prompt: string): Promise<{ sessionId: string; handle: string }> {
  const first = await lab.codex(prompt, undefined)
  assert.equal(first.code, 0, first.stderr)
  const sessionId = first.sessionId
  assert.ok(sessionId, first.stdout)
  const targets = await lab.sangamJson<TargetsJson>(['targets'])
  const agent = targets.agents.find((entry) => entry.sessionId === sessionId)
  assert.ok(agent, `${JSON.stringify(targets)}\n${lab.heartbeats()}`)
  assert.equal(agent.state, 'offline', 'its SessionEnd ran: dormant')
  const listed = await lab.sangamJson<{ sessions: { id: string; delivery: string; why: string }[] }>([
    'sessions',
  ])
  const session = listed.sessions.find((each) => each.id === sessionId)
  assert.equal(session?.delivery, 'resume', `sessions says a tag continues it: ${JSON.stringify(session)}`)
  return { sessionId, handle: agent.handle }
}

/** The rollout's user messages (prompts the thread took), in order. */
function rolloutPrompts(file: string | null): string[] {
  if (file === null) return []
  const prompts: string[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue
    const record = JSON.parse(line) as {
      type?: string
      payload?: { type?: string; role?: string; content?: { type?: string; text?: string }[] }
    }
    const payload = record.payload
    if (record.type !== 'response_item' || payload?.type !== 'message' || payload.role !== 'user') continue
    const text = (payload.content ?? []).map((part) => part.text ?? '').join('\n')
    if (!/^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/.test(text))
      prompts.push(text)
  }
  return prompts
}

async function deliveredOnce(
  lab: AgentLab,
  sessionId: string,
  handle: string,
  note: string,
  channel: string,
) {
  await using daemon = await startLabDaemon(lab)
  await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })
  const context = async () =>
    `daemon:\n${daemon.output()}\nledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}`
  const marker = note.split(' ')[0] as string
  await until(
    'the delivered turn reaching the model',
    async () => (lab.openai.promptsWith(marker).length > 0 ? true : null),
    60_000,
    context,
  )
  const ledger = await ledgerWhen(lab, 'the turn ending in the ledger', turnsEnded, { context })
  // The reply the model scripted lands in the rollout once the turn completes.
  await until(
    'the turn completing in the rollout',
    async () =>
      transcriptLines(lab.codexRollout(sessionId), 'SECOND-TURN-REPLY').includes('"type"') ? true : null,
    30_000,
    context,
  )
  // Given time for a second delivery to happen if one were going to.
  await sleep(1500)
  assert.deepEqual(
    lab.openai.promptsWith(marker).map((turn) => [turn.sessionId, turn.index]),
    [[sessionId, 1]],
    'the model received the tag once, as the thread’s second user turn',
  )
  const prompts = rolloutPrompts(lab.codexRollout(sessionId))
  assert.equal(prompts.length, 2, `two user turns in the rollout:\n${prompts.join('\n---\n')}`)
  assert.match(prompts[1] ?? '', new RegExp(marker))
  assert.match(prompts[1] ?? '', /bob@example\.com/, 'it says who tagged')
  assert.match(prompts[1] ?? '', /re-observe the repository/)
  assert.deepEqual(
    ledger.turns.map((turn) => [turn.sessionId, turn.channel, turn.cause, turn.why, turn.exitCode]),
    // Posted by the lab's script (no terminal): nobody can tell who typed it, so its turn counts
    // against the loop budget (D270).
    [[sessionId, channel, 'agent', 'tag', 0]],
    `one turn, carried by ${channel}`,
  )
  const rows = ledger.deliveries.filter((row) => row.sessionId === sessionId)
  assert.deepEqual(
    rows.map((row) => [row.state, row.channel, row.turnId]),
    [['delivered', channel, ledger.turns[0]?.id]],
  )
  return daemon.output()
}

/** Issue 10, scenario 2, dormant half: no daemon of Codex's own listens here, so `exec resume`. */
test('a tag to a dormant real Codex session is resumed by the daemon through codex exec resume, once', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  lab.openai.scriptTurns([[{ text: 'FIRST-TURN done.' }], [{ text: 'SECOND-TURN-REPLY on it.' }]])
  const { sessionId, handle } = await dormantSession(lab, 'Start here.')
  await deliveredOnce(lab, sessionId, handle, 'DORMANT-NOTE-5c1 the API tests are red', 'resume')
})

/**
 * The same with Codex's own app-server daemon listening (`codex app-server daemon start`, which
 * works offline: it copies the installed binary under $CODEX_HOME/packages): the installed CLI's
 * `codex queue --thread … --message … --resume` carries the tag, and the daemon runs the turn.
 */
test('with Codex’s own app-server daemon running, a tag to a dormant real Codex session goes through codex queue --resume, once', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  lab.openai.scriptTurns([[{ text: 'FIRST-TURN done.' }], [{ text: 'SECOND-TURN-REPLY queued.' }]])
  const { sessionId, handle } = await dormantSession(lab, 'Start here.')
  await using codexDaemon = startCodexDaemon(lab)
  await deliveredOnce(lab, sessionId, handle, 'QUEUED-NOTE-9e4 the build is red', 'queue')
  const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
  assert.match(ledger.turns[0]?.detail ?? '', /handed to the codex CLI's own queue/)
  assert.ok(codexDaemon.pids().length > 0, 'the turn ran on Codex’s daemon')
})

/**
 * The real Codex under `sangam codex`: when the launcher is SIGKILLed (no cleanup of its own can
 * run), its app-server (the real binary, behind Codex's node launcher) ends with it and the socket
 * goes, through the guard on a pipe (agents/codex/services/codex-server-guard.ts).
 */
test('a SIGKILLed sangam codex leaves no real Codex app-server running', async () => {
  await using lab = await openAgentLab()
  const tuiEnv = lab.codexTui()
  lab.openai.scriptTurns([[{ text: 'READY-first-turn.' }]])
  // The pane stays open (the TUI running) until the test ends.
  await using _pane = await openSangamCodex(lab, tuiEnv)
  const socketDir = join(lab.env.SANGAM_HOME ?? '', 'codex')
  const [socketName, ...more] = readdirSync(socketDir)
  assert.ok(socketName !== undefined && more.length === 0, `one socket: ${readdirSync(socketDir).join(', ')}`)
  const launcher = Number(/^app-server-(\d+)\.sock$/.exec(socketName)?.[1])
  const socket = join(socketDir, socketName)
  // The guard, Codex's node launcher and the native server; not the TUI (`--remote` the same socket).
  const serving = () => processesWith('app-server', `unix://${socket}`)
  const servers = serving()
  assert.ok(servers.length > 0, 'the app-server runs')
  process.kill(launcher, 'SIGKILL')
  await until(
    'the app-server ending with its launcher',
    async () => (serving().length === 0 ? true : null),
    15_000,
    async () => `still running: ${serving().join(', ')}`,
  )
  await until(
    'the socket removed',
    async () => (readdirSync(socketDir).length === 0 ? true : null),
    5_000,
    async () => readdirSync(socketDir).join(', '),
  )
})

/**
 * Starts Codex's local app-server daemon for the lab's CODEX_HOME. Disposing stops it and ends, by
 * pid, whatever of it is left (its `pid-update-loop` outlives `daemon stop` in 0.171.0).
 */
function startCodexDaemon(lab: AgentLab) {
  const codex = agentClisIn(agentClisDir(process.env)).codex
  const codexHome = lab.env.CODEX_HOME ?? ''
  const run = (args: string[]) =>
    spawnSync(codex, args, {
      cwd: lab.repo.path,
      env: definedEnv(lab.env),
      encoding: 'utf8',
      timeout: 60_000,
    })
  const started = run(['app-server', 'daemon', 'start'])
  assert.equal(started.status, 0, `codex app-server daemon start: ${started.stdout}${started.stderr}`)
  assert.match(started.stdout, /"status":"(started|running)"/)
  const pids = () => processesUnder(join(codexHome, 'packages'))
  return {
    pids,
    [Symbol.dispose]() {
      run(['app-server', 'daemon', 'stop'])
      for (const pid of pids()) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // Already gone.
        }
      }
    },
  }
}

/** Processes whose arguments include `word` and one containing `needle` (the lab's paths are its own). */
function processesWith(word: string, needle: string): number[] {
  return pidsWhere((argv) => argv.includes(word) && argv.some((arg) => arg.includes(needle)))
}

/** Processes whose executable path starts with `dir` (Codex's managed daemon runs from a copy there). */
function processesUnder(dir: string): number[] {
  return pidsWhere((argv) => (argv[0] ?? '').startsWith(dir))
}

function pidsWhere(match: (argv: string[]) => boolean): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (match(readFileSync(join('/proc', name, 'cmdline'), 'utf8').split('\0'))) found.push(Number(name))
    } catch {
      // Ended while we looked.
    }
  }
  return found
}

/** The user's Codex sandbox for the turns sangam starts (they take the user's config, no flags). */
function codexSandbox(lab: AgentLab, mode: string): void {
  const file = join(lab.env.CODEX_HOME ?? '', 'config.toml')
  writeFileSync(file, `sandbox_mode = "${mode}"\n${readFileSync(file, 'utf8')}`)
}

/**
 * Issue 10, scenario 4: two real Codex sessions whose model, in every delivered turn, runs
 * `sangam post --to @<the other> …` in the agent's shell (Codex gives the command CODEX_THREAD_ID,
 * so each post is that session's). A human tag starts it; the loop budget (2) and the cooldown
 * (1 s) are set through `option-set`. The loop stops; each session takes at most budget turns
 * caused by agents (plus the human's one); the ledger explains every tag not delivered; and no two
 * turns of one session ever ran at once, neither in the ledger nor as the model saw them.
 */
test('two real Codex sessions that tag each other back stop within the loop budget; the ledger says why', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  // Turns sangam starts take the user's Codex config (no sandbox flags): a user whose agents post
  // with the CLI runs them unsandboxed, since inside Codex's sandbox `sangam post` fails (D181).
  codexSandbox(lab, 'danger-full-access')
  const budget = 2
  await lab.sangamJson(['option-set', 'room.delivery-cooldown', '1'])
  await lab.sangamJson(['option-set', 'room.delivery-loop-budget', String(budget)])
  lab.openai.script([{ text: 'Created.' }])
  const a = await dormantSession(lab, 'You are A.')
  const b = await dormantSession(lab, 'You are B.')
  assert.notEqual(a.handle, b.handle)
  const other = new Map([
    [a.sessionId, b.handle],
    [b.sessionId, a.handle],
  ])
  let posts = 0
  lab.openai.script((turn): readonly CodexStep[] => {
    const to = turn.sessionId === null ? undefined : other.get(turn.sessionId)
    if (turn.index === 0 || to === undefined) return [{ text: 'Created.' }]
    posts += 1
    const post = `${process.execPath} ${cliEntry} post --to @${to} "PING-${posts} back to you"`
    return [{ shell: post }, { text: `Tagged @${to}.` }]
  })

  await using daemon = await startLabDaemon(lab)
  await lab.sangamJson(['post', '--to', `@${a.handle}`, 'LOOP-START ping-pong, please'], {
    SANGAM_USER: 'bob@example.com',
  })
  const context = async () =>
    `daemon:\n${daemon.output()}\nledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}\nmodel turns:\n${JSON.stringify(lab.openai.turns(), null, 1)}\nA's rollout:\n${transcriptLines(lab.codexRollout(a.sessionId), 'PING')}\nB's rollout:\n${transcriptLines(lab.codexRollout(b.sessionId), 'PING')}`
  await until(
    'a tag refused by the loop budget',
    async () => {
      const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
      return ledger.deliveries.some((row) => row.reason === 'loop-budget') ? true : null
    },
    120_000,
    context,
  )
  // Settled: no turn runs, and nothing more starts over several cooldowns.
  const settled = await until(
    'every turn ending',
    async () => {
      const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
      return ledger.turns.every((turn) => turn.state !== 'starting' && turn.state !== 'running')
        ? ledger
        : null
    },
    60_000,
    context,
  )
  const seen = lab.openai.turns().length
  await sleep(5000)
  const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
  assert.equal(lab.openai.turns().length, seen, `the loop stopped\n${await context()}`)
  assert.equal(ledger.turns.length, settled.turns.length, 'no turn started after it settled')

  for (const session of [a, b]) {
    const turns = ledger.turns
      .filter((turn) => turn.sessionId === session.sessionId)
      .sort((x, y) => x.id - y.id)
    const byAgents = turns.filter((turn) => turn.cause === 'agent' && turn.state !== 'failed')
    assert.ok(
      byAgents.length <= budget,
      `${session.handle}: ${byAgents.length} turns caused by agents, at most ${budget}\n${await context()}`,
    )
    // Every user turn the model answered after the first was one the ledger recorded: a turn sangam
    // started, or a Stop hook's hand-over (it continues the running turn, and Codex may show its
    // reason to the model as a prompt of its own).
    const started = turns.filter((turn) => turn.channel !== 'hand-over')
    const modelTurns = lab.openai.turns().filter((turn) => turn.sessionId === session.sessionId)
    assert.ok(
      modelTurns.length - 1 >= started.length && modelTurns.length - 1 <= turns.length,
      `${session.handle}: ${modelTurns.length - 1} model turns beyond the first, ${started.length} started and ${turns.length - started.length} handed over in the ledger\n${await context()}`,
    )
    assert.deepEqual(
      modelTurns.map((turn) => turn.index),
      modelTurns.map((_, index) => index),
      'one user turn after another',
    )
    // Never two at once: in the ledger each started turn began after the one before ended, and as
    // the model saw them no request of an earlier user turn came after one of a later turn.
    for (let i = 1; i < started.length; i++) {
      const before = started[i - 1]
      const now = started[i]
      assert.ok(before?.endedAt && now, 'an ended turn before each later one')
      assert.ok(
        Date.parse(now.startedAt) >= Date.parse(before.endedAt),
        `turn ${now.id} began after turn ${before.id} ended`,
      )
    }
    let highest = -1
    for (const request of lab.openai.requests) {
      if (request.turn?.sessionId !== session.sessionId) continue
      assert.ok(
        request.turn.index >= highest,
        `${session.handle}: a request of turn ${request.turn.index} after turn ${highest} began`,
      )
      highest = request.turn.index
    }
  }
  assert.ok(ledger.turns.length <= 2 * budget + 1, `${ledger.turns.length} turns, at most ${2 * budget + 1}`)
  assert.ok(ledger.turns.length >= 3, 'the sessions did tag each other')
  for (const row of ledger.deliveries) {
    if (row.state === 'delivered')
      assert.ok(
        row.channel && row.turnId,
        `a delivered tag names its channel and turn: ${JSON.stringify(row)}`,
      )
    else
      assert.ok(
        row.state === 'refused' && row.reason,
        `every other tag is refused with its reason: ${JSON.stringify(row)}`,
      )
  }
  const refused = ledger.deliveries.filter((row) => row.state === 'refused')
  assert.ok(
    refused.every((row) => row.reason === 'loop-budget' && row.senderKind === 'agent'),
    JSON.stringify(refused),
  )
})
