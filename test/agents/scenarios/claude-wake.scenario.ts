import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import type { DeliveriesJson } from '../../helpers/deliveries-json.ts'
import { cliEntry } from '../../helpers/run-cli.ts'
import { type AgentLab, openAgentLab } from '../agent-lab.ts'
import { openClaudeTui } from '../claude-tui.ts'
import type { ClaudeStep } from '../fake-anthropic.ts'
import { startLabDaemon, until } from '../lab-daemon.ts'
import { waitForTagStep } from '../wait-for-tag-step.ts'

/**
 * Issue 25 with the real Claude Code 2.1.332 in its TUI under tmux, started with its prompt in
 * argv, nobody typing: `install-hooks` puts the wake waiter (an `asyncRewake` Stop hook) beside the
 * Stop hook, and `sangam up` delivers a tag to the idle session through it. Claude Code turns the
 * waiter's exit 2 into a turn of the open session; the fake Anthropic server tells each user turn
 * of a conversation apart, so "once, as the session's second user turn" is exact.
 */

interface Sessions {
  sessions: { id: string; handle: string | null; presence: string; delivery: string; why: string }[]
}

/** The session the first prompt containing `marker` belongs to, once the model has been asked. */
async function sessionOf(lab: AgentLab, marker: string): Promise<string> {
  return until(
    `a model request of the session told "${marker}"`,
    async () => lab.anthropic.turns().find((turn) => turn.prompt.includes(marker))?.sessionId ?? null,
    60_000,
    async () => JSON.stringify(lab.anthropic.turns(), null, 1),
  )
}

/** The session once `sessions` says a tag wakes it in place (its waiter listens), with its handle. */
async function wakeable(lab: AgentLab, sessionId: string): Promise<string> {
  return until(
    'the session waking in place',
    async () => {
      const listed = await lab.sangamJson<Sessions>(['sessions'])
      const view = listed.sessions.find((session) => session.id === sessionId)
      return view?.delivery === 'live' && view.handle !== null ? view.handle : null
    },
    60_000,
    async () => `${(await lab.sangam(['sessions', '--json'])).stdout}\n${lab.heartbeats()}`,
  )
}

function transcriptOf(lab: AgentLab, sessionId: string): string {
  const dir = join(lab.env.CLAUDE_CONFIG_DIR ?? '', 'projects')
  const slug = lab.repo.path.replace(/[^A-Za-z0-9]/g, '-')
  const file = join(dir, slug, `${sessionId}.jsonl`)
  return existsSync(file) ? readFileSync(file, 'utf8') : ''
}

test('a tag to an idle real Claude Code TUI starts one turn in place; a second inside the cooldown starts none', async () => {
  await using lab = await openAgentLab()
  const installed = await lab.sangamJson<{ claude: { change: string } }>(['install-hooks'])
  assert.equal(installed.claude.change, 'added')
  lab.anthropic.scriptTurns([
    [{ text: 'READY-first-turn.' }],
    [{ text: 'WOKEN-IN-PLACE on the red tests.' }],
    [{ text: 'NEVER-THIRD.' }],
  ])
  await using pane = openClaudeTui(lab, 'Start here.')
  await pane.waitFor(/READY-first-turn/, 'the first reply')
  const sessionId = await sessionOf(lab, 'Start here.')
  const handle = await wakeable(lab, sessionId)
  await using daemon = await startLabDaemon(lab)
  const context = async () =>
    `daemon:\n${daemon.output()}\nledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}\nscreen:\n${pane.screen()}`

  const note = 'WAKENOTE-5c3 bob: the API tests are red'
  await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })
  await pane
    .waitFor(/WOKEN-IN-PLACE on the red tests\./, 'the turn the tag started')
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await context()}`)
    })
  assert.deepEqual(
    lab.anthropic.promptsWith('WAKENOTE-5c3').map((turn) => [turn.sessionId, turn.index]),
    [[sessionId, 1]],
    'the model received the tag once, as the session’s second user turn',
  )
  assert.match(
    lab.anthropic.promptsWith('WAKENOTE-5c3')[0]?.prompt ?? '',
    /You were tagged in the sangam room by bob@example\.com/,
  )
  assert.match(transcriptOf(lab, sessionId), /WAKENOTE-5c3/, 'the transcript has it')
  assert.doesNotMatch(pane.screen(), /WAKENOTE-5c3 bob/, 'nothing typed or pasted into the prompt')
  const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
  assert.deepEqual(
    ledger.turns.map((turn) => [turn.sessionId, turn.channel, turn.state]),
    [[sessionId, 'wake', 'ended']],
    await context(),
  )
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.sessionId, row.state, row.channel]),
    [[sessionId, 'delivered', 'wake']],
  )

  // The woken turn's Stop started the next waiter; a tag inside the cooldown (60 s) waits for it.
  await wakeable(lab, sessionId)
  const seen = lab.anthropic.turns().length
  const second = await lab.sangamJson<{ message: { id: string } }>(
    ['post', '--to', `@${handle}`, 'WAKENOTE-7a1 carol: and the lint'],
    { SANGAM_USER: 'carol@example.com' },
  )
  const waiting = await until(
    'the second tag weighed',
    async () => {
      const now = await lab.sangamJson<DeliveriesJson>(['deliveries'])
      const row = now.deliveries.find((candidate) => candidate.messageId === second.message.id)
      return row?.state === 'pending' && row.reason === 'cooldown' ? now : null
    },
    60_000,
    context,
  )
  assert.equal(waiting.turns.length, 1, 'no second turn inside the cooldown')
  assert.equal(lab.anthropic.turns().length, seen, 'the model was not asked again')
  assert.equal(lab.anthropic.promptsWith('WAKENOTE-7a1').length, 0)
  assert.equal(lab.anthropic.promptsWith('WAKENOTE-5c3').length, 1, 'the first is not carried again')
})

test('a tag arriving while a real Claude Code TUI is in a turn reaches the model once, at its Stop, never also through the waiter', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const posted = join(lab.home, 'tag-posted')
  lab.anthropic.scriptTurns([
    [waitForTagStep(posted), { text: 'FIRST-TURN-DONE.' }],
    [{ text: 'HANDED-OVER rebasing now.' }],
    [{ text: 'NEVER-AGAIN.' }],
  ])
  await using daemon = await startLabDaemon(lab)
  await using pane = openClaudeTui(lab, 'Start here.')
  const sessionId = await sessionOf(lab, 'Start here.')
  const context = async () =>
    `daemon:\n${daemon.output()}\nledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}\nscreen:\n${pane.screen()}\nturns:\n${JSON.stringify(lab.anthropic.turns(), null, 1)}`
  const handle = await until(
    'the session’s handle',
    async () =>
      (await lab.sangamJson<Sessions>(['sessions'])).sessions.find((session) => session.id === sessionId)
        ?.handle ?? null,
    60_000,
    context,
  )
  const post = await lab.sangamJson<{ message: { id: string } }>(
    ['post', '--to', `@${handle}`, 'BUSYNOTE-2d8 bob: rebase onto main before you push'],
    { SANGAM_USER: 'bob@example.com' },
  )
  await until(
    'the tag waiting for the turn’s Stop',
    async () => {
      const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
      return ledger.deliveries.some(
        (row) => row.messageId === post.message.id && row.state === 'pending' && row.channel === 'hand-over',
      )
        ? true
        : null
    },
    60_000,
    context,
  )
  writeFileSync(posted, '')
  await pane
    .waitFor(/HANDED-OVER rebasing now\./, 'the turn the Stop kept going')
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await context()}`)
    })
  // The Stop after the hand-over (stop_hook_active) ends the turn; its waiter then listens.
  await wakeable(lab, sessionId)
  assert.deepEqual(
    lab.anthropic.promptsWith('BUSYNOTE-2d8').map((turn) => [turn.sessionId, turn.index]),
    [[sessionId, 1]],
    `the model received the tag once\n${await context()}`,
  )
  assert.equal(lab.anthropic.turns().length, 2, 'no wake after the hand-over')
  const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
  assert.deepEqual(
    ledger.turns.map((turn) => turn.channel),
    ['hand-over'],
    await context(),
  )
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.messageId, row.state, row.channel]),
    [[post.message.id, 'delivered', 'hand-over']],
  )
})

test('two real Claude Code TUIs that tag each other back stop within the loop budget, woken in place', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const budget = 2
  await lab.sangamJson(['option-set', 'room.delivery-cooldown', '1'])
  await lab.sangamJson(['option-set', 'room.delivery-loop-budget', String(budget)])
  const other = new Map<string, string>()
  let posts = 0
  lab.anthropic.script((turn): readonly ClaudeStep[] => {
    const to = turn.sessionId === null ? undefined : other.get(turn.sessionId)
    if (turn.index === 0 || to === undefined) return [{ text: 'READY.' }]
    posts += 1
    return [
      {
        tool: 'Bash',
        input: {
          command: `${process.execPath} ${cliEntry} post --to @${to} "PING-${posts} back to you"`,
          description: 'Tag the other agent',
        },
      },
      { text: `Tagged @${to}.` },
    ]
  })
  await using paneA = openClaudeTui(lab, 'You are A.', 'tui-a')
  await using paneB = openClaudeTui(lab, 'You are B.', 'tui-b')
  const a = await sessionOf(lab, 'You are A.')
  const b = await sessionOf(lab, 'You are B.')
  const handleA = await wakeable(lab, a)
  const handleB = await wakeable(lab, b)
  other.set(a, handleB)
  other.set(b, handleA)
  await using daemon = await startLabDaemon(lab)
  const context = async () =>
    `daemon:\n${daemon.output()}\nledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}\nmodel turns:\n${JSON.stringify(lab.anthropic.turns(), null, 1)}\nA:\n${paneA.screen()}\nB:\n${paneB.screen()}`

  await lab.sangamJson(['post', '--to', `@${handleA}`, 'LOOP-START ping-pong, please'], {
    SANGAM_USER: 'bob@example.com',
  })
  await until(
    'a tag refused by the loop budget',
    async () => {
      const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
      return ledger.deliveries.some((row) => row.reason === 'loop-budget') ? true : null
    },
    180_000,
    context,
  )
  // Settled: both sessions at rest, their waiters listening again, and nothing more starts.
  await wakeable(lab, a)
  await wakeable(lab, b)
  const seen = lab.anthropic.turns().length
  const settled = await lab.sangamJson<DeliveriesJson>(['deliveries'])
  // Several of the daemon's looks (every 2 s while tags wait) and cooldowns pass: still nothing.
  await new Promise((done) => setTimeout(done, 6000))
  const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
  assert.equal(lab.anthropic.turns().length, seen, `the loop stopped\n${await context()}`)
  assert.equal(ledger.turns.length, settled.turns.length, 'no turn started after it settled')

  for (const [name, session] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const turns = ledger.turns.filter((turn) => turn.sessionId === session)
    const byAgents = turns.filter((turn) => turn.cause === 'agent' && turn.state !== 'failed')
    assert.ok(
      byAgents.length <= budget,
      `${name}: ${byAgents.length} turns caused by agents, at most ${budget}\n${await context()}`,
    )
    const modelTurns = lab.anthropic.turns().filter((turn) => turn.sessionId === session)
    assert.deepEqual(
      modelTurns.map((turn) => turn.index),
      modelTurns.map((_, index) => index),
      `${name}: one user turn after another`,
    )
    // Every model turn after the first was one the ledger recorded (a wake or a Stop's hand-over).
    assert.equal(modelTurns.length - 1, turns.length, `${name}\n${await context()}`)
    let highest = -1
    for (const request of lab.anthropic.requests) {
      if (request.turn?.sessionId !== session) continue
      assert.ok(
        request.turn.index >= highest,
        `${name}: a request of turn ${request.turn.index} after turn ${highest}`,
      )
      highest = request.turn.index
    }
  }
  assert.ok(ledger.turns.length <= 2 * budget + 1, `${ledger.turns.length} turns, at most ${2 * budget + 1}`)
  assert.ok(ledger.turns.length >= 3, 'the sessions did tag each other')
  assert.ok(
    ledger.turns.some((turn) => turn.channel === 'wake'),
    'woken in place, not resumed beside the open TUIs',
  )
  assert.ok(
    ledger.turns.every((turn) => turn.channel === 'wake' || turn.channel === 'hand-over'),
    JSON.stringify(ledger.turns),
  )
  const refused = ledger.deliveries.filter((row) => row.state === 'refused')
  assert.ok(
    refused.length > 0 && refused.every((row) => row.reason === 'loop-budget' && row.senderKind === 'agent'),
    JSON.stringify(refused),
  )
})
