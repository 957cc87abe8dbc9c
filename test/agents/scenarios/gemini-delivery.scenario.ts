import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import type { TargetsJson } from '../../helpers/targets-json.ts'
import { geminiCliDir, geminiCliIn } from '../agent-clis.ts'
import { type AgentLab, openAgentLab } from '../agent-lab.ts'
import { startLabDaemon, until } from '../lab-daemon.ts'
import { ledgerWhen, turnsEnded } from '../ledger-waits.ts'
import { startedTurnEnded } from '../started-turn.ts'

/**
 * Issue 22, delivery for Gemini CLI with the real 0.61.0 offline: a tag to a dormant session's
 * handle makes the daemon resume it once through `gemini --resume <id>`, the prompt on stdin (no
 * `-p`, no approval flag: the turn runs under the user's own settings, D405); a second tag inside
 * the cooldown starts no second turn and waits in the ledger.
 */

/** The main-loop requests that carry `marker`, and how many times each carries it. */
function requestsWith(lab: AgentLab, marker: string): number[] {
  return lab.geminiApi.requests
    .filter((request) => request.kind === 'main')
    .map((request) => JSON.stringify(request.body).split(marker).length - 1)
    .filter((count) => count > 0)
}

/**
 * Every file of the session under Gemini's tmp (a resume in a later minute may open a second
 * `session-<time>-<id8>.jsonl` beside the first).
 */
function sessionFiles(dir: string, idPrefix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl') && name.includes(idPrefix))
    .map((name) => join(dir, name))
}

test('a tag to a dormant real Gemini CLI session resumes it once through its headless resume, the prompt on stdin; a second tag inside the cooldown starts none', async () => {
  await using lab = await openAgentLab()
  // The daemon finds `gemini` on the user's PATH, as it finds claude and codex.
  lab.env.PATH = `${dirname(geminiCliIn(geminiCliDir(process.env)))}:${lab.env.PATH ?? ''}`
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['option-set', 'room.delivery-cooldown', '3600'])
  lab.geminiApi.script((turn) =>
    turn.prompt.includes('GEMTAG-7d2e')
      ? [{ text: 'SECOND-TURN-REPLY rebasing.' }]
      : [{ text: 'FIRST-TURN ready.' }],
  )
  const first = await lab.gemini('Start here.', undefined)
  assert.equal(first.code, 0, first.stderr)
  const sessionId = first.sessionId
  assert.ok(sessionId && first.transcript, first.stderr)
  const targets = await lab.sangamJson<TargetsJson>(['targets'])
  const agent = targets.agents.find((entry) => entry.vendor === 'gemini' && entry.sessionId === sessionId)
  assert.ok(agent, `no gemini session in targets: ${JSON.stringify(targets)}\n${lab.heartbeats()}`)
  assert.equal(agent.state, 'offline', `its SessionEnd ran: dormant\n${lab.heartbeats()}`)
  const listed = await lab.sangamJson<{
    sessions: { id: string; vendor: string; delivery: string; why: string }[]
  }>(['sessions'])
  const session = listed.sessions.find((each) => each.id === sessionId)
  assert.equal(session?.vendor, 'gemini')
  assert.equal(session?.delivery, 'resume', `sessions says a tag continues it: ${JSON.stringify(session)}`)
  assert.match(session?.why ?? '', /gemini/)

  await using daemon = await startLabDaemon(lab)
  const context = async () =>
    `daemon:\n${daemon.output()}\nledger:\n${(await lab.sangam(['deliveries', '--json'])).stdout}\nheartbeats:\n${lab.heartbeats()}`
  const note = 'GEMTAG-7d2e the API tests are red, please rebase'
  await lab.sangamJson(['post', '--to', `@${agent.handle}`, note], { SANGAM_USER: 'bob@example.com' })
  await until(
    'the delivered turn reaching the model',
    async () => (requestsWith(lab, 'GEMTAG-7d2e').length > 0 ? true : null),
    90_000,
    context,
  )
  const ledger = await ledgerWhen(lab, 'the turn ending in the ledger', turnsEnded, {
    timeoutMs: 90_000,
    context,
  })
  assert.deepEqual(
    ledger.turns.map((turn) => [turn.sessionId, turn.channel, turn.cause, turn.why, turn.exitCode]),
    [[sessionId, 'resume', 'agent', 'tag', 0]],
    `one turn, a resume of the session, ended well\n${await context()}`,
  )
  assert.deepEqual(
    ledger.deliveries
      .filter((row) => row.sessionId === sessionId)
      .map((row) => [row.state, row.channel, row.turnId]),
    [['delivered', 'resume', ledger.turns[0]?.id]],
  )
  // The resumed session took the tag as its next user turn, in the session's own file.
  const transcript = sessionFiles(join(lab.home, '.gemini', 'tmp'), sessionId.slice(0, 8))
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n')
  assert.match(transcript, /GEMTAG-7d2e/, 'the tag is in the session file')
  assert.match(transcript, /SECOND-TURN-REPLY/, "the model's answer to it is in the session file")
  // The prompt delivery wrote on stdin reached the model once, in one main request of the turn.
  const prompted = requestsWith(lab, 'You were tagged in the sangam room by bob@example.com')
  assert.deepEqual(prompted, [1], `the delivered prompt, once: ${JSON.stringify(prompted)}`)

  // Inside the cooldown (an hour) a second tag starts no turn: it waits in the ledger, saying why.
  const seen = lab.geminiApi.requests.length
  await lab.sangamJson(['post', '--to', `@${agent.handle}`, 'GEMTAG-second a follow-up'], {
    SANGAM_USER: 'bob@example.com',
  })
  const waiting = await ledgerWhen(
    lab,
    'the second tag weighed',
    (now) => now.deliveries.some((row) => row.reason === 'cooldown'),
    { context },
  )
  assert.equal(waiting.turns.length, 1, `no second turn\n${await context()}`)
  assert.deepEqual(
    waiting.deliveries
      .filter((row) => row.turnId === null)
      .map((row) => [row.state, row.channel, row.reason]),
    [['pending', 'resume', 'cooldown']],
  )
  assert.equal(
    lab.geminiApi.requests.slice(seen).filter((request) => request.kind === 'main').length,
    0,
    'the model was not asked again',
  )
})

/**
 * `sangam start --vendor gemini`: a new headless session under the id sangam picks
 * (`gemini --session-id <id>`), its first prompt on stdin; the session file carries that id.
 */
test('sangam start --vendor gemini starts a new real Gemini CLI session under the id sangam picks, the prompt on stdin', async () => {
  await using lab = await openAgentLab()
  lab.env.PATH = `${dirname(geminiCliIn(geminiCliDir(process.env)))}:${lab.env.PATH ?? ''}`
  await lab.sangamJson(['install-hooks'])
  lab.geminiApi.script([{ text: 'STARTED-REPLY on it.' }])
  const { started } = await startedTurnEnded(lab, 'gemini', 'STARTNOTE-3b1 look at the failing test')
  const sessionId = started.sessionId
  assert.deepEqual(requestsWith(lab, 'STARTNOTE-3b1'), [1], 'the first prompt reached the model once')
  const files = sessionFiles(join(lab.home, '.gemini', 'tmp'), sessionId.slice(0, 8))
  const transcript = files.map((path) => readFileSync(path, 'utf8')).join('\n')
  assert.match(transcript, new RegExp(`"sessionId":"${sessionId}"`), 'the session took the id sangam picked')
  assert.match(transcript, /STARTED-REPLY/)
})
