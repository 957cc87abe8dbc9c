import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { offlineConfigFolder, openAgentLab } from '../agent-lab.ts'
import { ledgerContext } from '../ledger-waits.ts'
import { startedTurnEnded } from '../started-turn.ts'

/**
 * sangam's opencode plugin asks the hook for the session's brief when opencode assembles the first
 * system prompt, and keeps it there: the brief, leases included, is in the first model request of
 * a real opencode session.
 */
test('the brief, with the leases, reaches the first model request of a real opencode session', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })
  const run = await lab.opencode('What is going on in this project?', [
    { text: 'Bob is rewriting the parser.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  const first = JSON.stringify(lab.chat.requests.find((request) => request.kind === 'main')?.body)
  assert.match(
    first,
    /sangam brief for dev@example\.com's opencode session/,
    `hooks saw:\n${lab.heartbeats()}`,
  )
  assert.match(
    first,
    /src\/a\.ts: bob@example\.com until .{0,60}rewriting the parser/,
    'the lease is in the brief',
  )
})

/**
 * `sangam start --vendor opencode`: a new headless session through `opencode run --format json`,
 * its first prompt on stdin; opencode names the session, and the ledger's turn learns that id from
 * the launch's first JSON event. The session is then a member of the room like any other.
 */
test('sangam start --vendor opencode starts a new real opencode session, the prompt on stdin, and learns its id', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  // What lab.opencode does before each run: opencode's plugin SDK install kept off the network.
  offlineConfigFolder(join(lab.repo.path, '.opencode'))
  lab.chat.script([{ text: 'STARTED-REPLY on it.' }])
  const marker = 'STARTNOTE-oc5d look at the failing test'
  const { turn } = await startedTurnEnded(lab, 'opencode', marker)
  assert.match(
    turn.sessionId,
    /^ses_[0-9A-Za-z]+$/,
    `the turn learned opencode's session id\n${await ledgerContext(lab)}`,
  )
  const main = lab.chat.requests.filter((request) => request.kind === 'main')
  assert.equal(
    main.filter((request) => JSON.stringify(request.body).includes('STARTNOTE-oc5d')).length,
    1,
    'the first prompt reached the model once',
  )
  // The session is the room's: its plugin ran under the id the ledger learned.
  const targets = await lab.sangamJson<{ agents: { vendor: string; sessionId: string; state: string }[] }>([
    'targets',
  ])
  const agent = targets.agents.find((each) => each.vendor === 'opencode' && each.sessionId === turn.sessionId)
  assert.ok(agent, `the started session is in targets: ${JSON.stringify(targets)}\n${lab.heartbeats()}`)
  assert.equal(agent.state, 'offline', 'opencode run ended: dormant, a tag resumes it')
  await lab.sangamJson(['index'])
  const found = await lab.sangamJson<{ hits: { text: string }[] }>(['search', 'STARTNOTE oc5d'])
  assert.ok(found.hits.length > 0, 'its transcript is captured with the human words')
})
