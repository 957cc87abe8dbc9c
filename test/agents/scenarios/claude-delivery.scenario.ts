import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { DeliveriesJson } from '../../helpers/deliveries-json.ts'
import { cliEntry } from '../../helpers/run-cli.ts'
import type { TargetsJson } from '../../helpers/targets-json.ts'
import { agentClisDir, agentClisIn } from '../agent-clis.ts'
import { type AgentLab, openAgentLab, transcriptLines } from '../agent-lab.ts'
import { definedEnv } from '../defined-env.ts'
import { startLabDaemon } from '../lab-daemon.ts'
import { ledgerWhen } from '../ledger-waits.ts'
import { waitForTagStep } from '../wait-for-tag-step.ts'

/**
 * Issue 10 with the real Claude Code 2.1.332: a tag to an idle session resumes it once (through
 * `claude --bg --resume`, its own background sessions, when the workspace is trusted; through
 * `claude --print --resume` when `--bg` refuses), and a tag that arrives during a turn is handed
 * over at that turn's Stop, once. The daemon (`sangam up`) delivers; the fake Anthropic server
 * tells each user turn of a conversation apart, so "once, as the second user turn" is an exact
 * assertion on what the model was asked.
 */

const claudeBin = agentClisIn(agentClisDir(process.env)).claude

/** The real `claude` with the lab's environment (its config dir, the fake server). */
function claudeCli(
  lab: AgentLab,
  args: readonly string[],
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(claudeBin, [...args], {
    cwd: lab.repo.path,
    env: definedEnv(lab.env),
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/**
 * What a user who has opened Claude Code in this repository once has in its config: the
 * workspace trusted and the API key approved. Without trust `claude --bg` exits 1 ("Workspace not
 * trusted"); without the key approved a background session sits at that question (`claude agents`
 * says `blocked`) and never calls the model.
 */
function trustWorkspace(lab: AgentLab): void {
  const file = join(lab.env.CLAUDE_CONFIG_DIR ?? '', '.claude.json')
  const config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {}
  const projects = (config.projects ?? {}) as Record<string, Record<string, unknown>>
  projects[lab.repo.path] = { ...(projects[lab.repo.path] ?? {}), hasTrustDialogAccepted: true }
  config.projects = projects
  config.customApiKeyResponses = { approved: [(lab.env.ANTHROPIC_API_KEY ?? '').slice(-20)], rejected: [] }
  writeFileSync(file, JSON.stringify(config))
}

/** The session's state as the room shows it (`targets`), from its hooks. */
function agentState(lab: AgentLab, sessionId: string): string | null {
  const run = spawnSync(process.execPath, [cliEntry, 'targets', '--json'], {
    cwd: lab.repo.path,
    env: definedEnv(lab.env),
    encoding: 'utf8',
  })
  const targets = JSON.parse(run.stdout) as { agents: { sessionId: string; state: string }[] }
  return targets.agents.find((agent) => agent.sessionId === sessionId)?.state ?? null
}

async function handleOf(lab: AgentLab, sessionId: string): Promise<string> {
  const targets = await lab.sangamJson<TargetsJson>(['targets'])
  const handle = targets.agents.find((agent) => agent.sessionId === sessionId)?.handle
  assert.ok(handle, `no handle for ${sessionId}: ${JSON.stringify(targets)}\n${lab.heartbeats()}`)
  return handle
}

/** Polls `ready` every 100 ms, 60 s at most (a hang, not a timing claim). */
async function until(ready: () => boolean, explain: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (!ready()) {
    if (Date.now() > deadline) assert.fail(explain())
    await new Promise((done) => setTimeout(done, 100))
  }
}

function transcriptHas(file: string | null, needle: string): boolean {
  return file !== null && existsSync(file) && readFileSync(file, 'utf8').includes(needle)
}

test('a tag to an idle real Claude Code session is resumed once, in the background under its own id', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  // One second: the second tag below is weighed as soon as the first turn is at rest.
  await lab.sangamJson(['option-set', 'room.delivery-cooldown', '1'])
  lab.anthropic.scriptTurns([
    [{ text: 'READY-first-turn.' }],
    [{ text: 'BG-REPLY on the red tests.' }],
    [{ text: 'BG-REPLY-2 on the lint.' }],
  ])
  const first = await lab.claude('Start here.', undefined)
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const sessionId = first.sessionId
  trustWorkspace(lab)

  // The ended print session is not one Claude Code lists as open: delivery may continue it.
  const listed = claudeCli(lab, ['agents', '--json'])
  assert.equal(listed.status, 0, listed.stderr)
  assert.deepEqual(JSON.parse(listed.stdout), [], 'no open session after claude --print ended')

  const handle = await handleOf(lab, sessionId)
  const daemon = await startLabDaemon(lab)
  try {
    const note = 'BGNOTE-3c1 bob: the API tests are red'
    await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })
    await until(
      () => transcriptHas(first.transcript, 'BG-REPLY on the red tests.'),
      () =>
        `the background turn never answered\ndaemon:\n${daemon.output()}\n${claudeCli(lab, ['agents', '--json', '--all']).stdout}`,
    )
    assert.deepEqual(
      lab.anthropic.promptsWith('BGNOTE-3c1').map((turn) => [turn.sessionId, turn.index]),
      [[sessionId, 1]],
      'the model received the tag once, as the session’s second user turn',
    )
    assert.match(
      transcriptLines(first.transcript, 'BGNOTE-3c1'),
      /"type":"user"/,
      'the transcript shows the turn',
    )

    const agents = JSON.parse(claudeCli(lab, ['agents', '--json']).stdout) as {
      sessionId: string
      kind: string
    }[]
    assert.deepEqual(
      agents.map((agent) => [agent.sessionId, agent.kind]),
      [[sessionId, 'background']],
      'Claude Code runs it as a background session under the same id',
    )
    const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
    assert.deepEqual(
      ledger.turns.filter((turn) => turn.sessionId === sessionId).map((turn) => turn.channel),
      ['background'],
      `one turn, carried by claude --bg\n${JSON.stringify(ledger, null, 2)}`,
    )
    assert.deepEqual(
      ledger.deliveries.map((row) => [row.sessionId, row.state, row.channel]),
      [[sessionId, 'delivered', 'background']],
    )

    // The background session stays open, at rest, in Claude Code's daemon. Claude Code runs its
    // hooks as an interactive session's, so its Stop started sangam's wake waiter: a second tag
    // wakes it in place, as it would a terminal's (D370), rather than stopping and continuing it.
    await until(
      () => lab.anthropic.turns().length === 2 && agentState(lab, sessionId) === 'idle',
      () => `the first background turn never came to rest: ${claudeCli(lab, ['agents', '--json']).stdout}`,
    )
    const sessions = await lab.sangamJson<{ sessions: { id: string; delivery: string }[] }>(['sessions'])
    assert.equal(
      sessions.sessions.find((entry) => entry.id === sessionId)?.delivery,
      'live',
      'sessions says its waiter listens',
    )
    const again = 'BGNOTE-9d4 carol: and the lint is failing'
    await lab.sangamJson(['post', '--to', `@${handle}`, again], { SANGAM_USER: 'carol@example.com' })
    await until(
      () => transcriptHas(first.transcript, 'BG-REPLY-2 on the lint.'),
      () => `the second tag never ran\ndaemon:\n${daemon.output()}`,
    )
    assert.deepEqual(
      lab.anthropic.promptsWith('BGNOTE-9d4').map((turn) => [turn.sessionId, turn.index]),
      [[sessionId, 2]],
      'the model received the second tag once, as the third user turn of the same session',
    )
    assert.equal(lab.anthropic.promptsWith('BGNOTE-3c1').length, 1, 'the first is not carried again')
    const second = await lab.sangamJson<DeliveriesJson>(['deliveries'])
    assert.deepEqual(
      second.turns.filter((turn) => turn.sessionId === sessionId).map((turn) => [turn.channel, turn.state]),
      [
        ['wake', 'ended'],
        ['background', 'ended'],
      ],
      JSON.stringify(second, null, 2),
    )
  } finally {
    await daemon.stop()
    // The background session and Claude Code's transient daemon are this test's: end them.
    claudeCli(lab, ['daemon', 'stop', '--any'])
  }
})

test('where claude --bg refuses (a workspace never trusted), the tag resumes the session with claude --print instead, once', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  lab.anthropic.scriptTurns([[{ text: 'READY-first-turn.' }], [{ text: 'RESUMED-REPLY on the schema.' }]])
  const first = await lab.claude('Start here.', undefined)
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const sessionId = first.sessionId
  const handle = await handleOf(lab, sessionId)
  const daemon = await startLabDaemon(lab)
  try {
    const note = 'RESNOTE-8e2 bob: the schema moved'
    await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })
    await until(
      () => transcriptHas(first.transcript, 'RESUMED-REPLY on the schema.'),
      () => `the resumed turn never answered\ndaemon:\n${daemon.output()}`,
    )
    assert.deepEqual(
      lab.anthropic.promptsWith('RESNOTE-8e2').map((turn) => [turn.sessionId, turn.index]),
      [[sessionId, 1]],
      'the model received the tag once, as the session’s second user turn',
    )
    assert.match(transcriptLines(first.transcript, 'RESNOTE-8e2'), /"type":"user"/)
    // The headless turn's process is gone once its reply is in the transcript; its exit is recorded after.
    const ledger = await ledgerWhen(lab, 'the resumed turn ending', (now) =>
      now.turns.some((turn) => turn.channel === 'resume' && turn.state === 'ended'),
    )
    const turns = ledger.turns.filter((turn) => turn.sessionId === sessionId).reverse()
    assert.deepEqual(
      turns.map((turn) => [turn.channel, turn.state]),
      [
        ['background', 'failed'],
        ['resume', 'ended'],
      ],
      JSON.stringify(ledger, null, 2),
    )
    assert.match(
      turns[0]?.detail ?? '',
      /exited with 1: Workspace not trusted/,
      'the refusal in the CLI’s words',
    )
    assert.match(turns[1]?.detail ?? '', /^instead of turn \d+: /)
    assert.deepEqual(
      ledger.deliveries.map((row) => [row.sessionId, row.state, row.channel]),
      [[sessionId, 'delivered', 'resume']],
    )
  } finally {
    await daemon.stop()
  }
})

test('a real background session blocked at an API key never approved: later tags wait at-question, nothing is stopped or continued', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['option-set', 'room.delivery-cooldown', '1'])
  lab.anthropic.scriptTurns([[{ text: 'READY-first-turn.' }], [{ text: 'NEVER-ASKED.' }]])
  const first = await lab.claude('Start here.', undefined)
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const sessionId = first.sessionId
  // Trusted, but the custom API key was never approved in the TUI (print mode never asks).
  const file = join(lab.env.CLAUDE_CONFIG_DIR ?? '', '.claude.json')
  const config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {}
  const projects = (config.projects ?? {}) as Record<string, Record<string, unknown>>
  projects[lab.repo.path] = { ...(projects[lab.repo.path] ?? {}), hasTrustDialogAccepted: true }
  writeFileSync(file, JSON.stringify({ ...config, projects }))
  const handle = await handleOf(lab, sessionId)
  const daemon = await startLabDaemon(lab)
  const listing = () =>
    JSON.parse(claudeCli(lab, ['agents', '--json']).stdout || '[]') as {
      id: string
      sessionId: string
      state?: string
    }[]
  try {
    await lab.sangamJson(['post', '--to', `@${handle}`, 'QNOTE-1 bob: the API tests are red'], {
      SANGAM_USER: 'bob@example.com',
    })
    await ledgerWhen(lab, 'the background turn ending', (now) =>
      now.turns.some((turn) => turn.channel === 'background' && turn.state === 'ended'),
    )
    await until(
      () => listing().some((agent) => agent.sessionId === sessionId && agent.state === 'blocked'),
      () => `Claude Code never listed the session blocked: ${JSON.stringify(listing())}\n${daemon.output()}`,
    )
    // What sangam cannot undo: that first background turn stopped at the question before the model.
    assert.equal(lab.anthropic.promptsWith('QNOTE-1').length, 0)

    await new Promise((done) => setTimeout(done, 1100))
    await lab.sangamJson(['post', '--to', `@${handle}`, 'QNOTE-2 carol: and the lint'], {
      SANGAM_USER: 'carol@example.com',
    })
    const ledger = await ledgerWhen(lab, 'the tag waiting at the question', (now) =>
      now.deliveries.some((row) => row.state === 'pending' && row.reason === 'at-question'),
    )
    // Three more looks of the daemon (every 2 s while a tag waits): still nothing started.
    await new Promise((done) => setTimeout(done, 6500))
    const later = await lab.sangamJson<DeliveriesJson>(['deliveries'])
    assert.deepEqual(
      later.turns.map((turn) => turn.channel),
      ['background'],
      `no claude stop and --bg again into the same question\n${JSON.stringify(later, null, 2)}`,
    )
    assert.deepEqual(
      later.deliveries.filter((row) => row.state === 'pending').map((row) => [row.channel, row.reason]),
      [['hand-over', 'at-question']],
      JSON.stringify(ledger, null, 2),
    )
    assert.equal(lab.anthropic.promptsWith('QNOTE-2').length, 0)
    const shortId = listing().find((agent) => agent.sessionId === sessionId)?.id ?? ''
    const sessions = await lab.sangamJson<{ sessions: { id: string; delivery: string; why: string }[] }>([
      'sessions',
    ])
    const view = sessions.sessions.find((entry) => entry.id === sessionId)
    assert.equal(view?.delivery, 'active-elsewhere')
    assert.match(view?.why ?? '', new RegExp(`claude attach ${shortId}`))
  } finally {
    await daemon.stop()
    claudeCli(lab, ['daemon', 'stop', '--any'])
  }
})

test('a tag arriving during a real Claude Code turn is handed over at its Stop, exactly once, and no turn starts beside it', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const posted = join(lab.home, 'tag-posted')
  // The first turn's tool call holds the turn open until the test has posted the tag.
  lab.anthropic.scriptTurns([
    [waitForTagStep(posted), { text: 'FIRST-TURN-DONE.' }],
    [{ text: 'HANDOVER-REPLY rebasing now.' }],
  ])
  const daemon = await startLabDaemon(lab)
  try {
    const running = lab.claude('Start here.', undefined)
    await until(
      () => lab.anthropic.turns().length > 0,
      () => 'the first turn never reached the model',
    )
    const sessionId = lab.anthropic.turns()[0]?.sessionId ?? null
    assert.ok(sessionId)
    const handle = await handleOf(lab, sessionId)
    const note = 'HANDNOTE-5b7 bob: rebase onto main before you push'
    const post = await lab.sangamJson<{ message: { id: string } }>(['post', '--to', `@${handle}`, note], {
      SANGAM_USER: 'bob@example.com',
    })
    // The daemon has weighed it: the session is in a turn, so the tag waits for its Stop.
    await ledgerWhen(lab, 'the tag waiting for the hand-over', (ledger) =>
      ledger.deliveries.some(
        (row) => row.messageId === post.message.id && row.state === 'pending' && row.channel === 'hand-over',
      ),
    )
    writeFileSync(posted, '')
    const run = await running
    assert.equal(run.code, 0, run.stderr)
    assert.equal(run.sessionId, sessionId)

    assert.deepEqual(
      lab.anthropic.promptsWith('HANDNOTE-5b7').map((turn) => [turn.sessionId, turn.index]),
      [[sessionId, 1]],
      `the model received the tag once, as the continuation after the Stop\n${JSON.stringify(lab.anthropic.turns(), null, 2)}`,
    )
    // Claude Code sends the block's reason as the next user message, inside its own reminder.
    assert.match(
      lab.anthropic.turns()[1]?.prompt ?? '',
      /Stop hook feedback:\nsangam: a message tagging you arrived during this turn\./,
    )
    const blocked = transcriptLines(run.transcript, 'stop_hook_summary')
      .split('\n')
      .filter((line) => line.includes('HANDNOTE-5b7'))
    assert.equal(blocked.length, 1, `one Stop carried it\n${blocked.join('\n')}`)
    assert.equal(lab.anthropic.turns().length, 2, 'the second Stop (stop_hook_active) is not blocked again')
    assert.match(transcriptLines(run.transcript, 'HANDOVER-REPLY'), /HANDOVER-REPLY rebasing now\./)

    // Whatever the daemon and a manual look do now, the tag has been carried.
    await lab.sangamJson(['deliveries', '--deliver'])
    const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
    assert.deepEqual(
      ledger.turns.filter((turn) => turn.sessionId === sessionId).map((turn) => turn.channel),
      ['hand-over'],
      `one hand-over, no resume beside it\n${JSON.stringify(ledger, null, 2)}\ndaemon:\n${daemon.output()}`,
    )
    assert.deepEqual(
      ledger.deliveries.map((row) => [row.messageId, row.state, row.channel]),
      [[post.message.id, 'delivered', 'hand-over']],
    )
  } finally {
    await daemon.stop()
  }
})
