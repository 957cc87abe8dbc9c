import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { dirname } from 'node:path'
import { test } from 'node:test'
import { codexWake, socketPathOf } from '../../../src/agents/codex/services/codex-wake.ts'
import { version } from '../../../src/config/version.ts'
import { openDatabaseFile } from '../../../src/project/store/project-database.ts'
import { isSangamError } from '../../../src/shared/sangam-error.ts'
import { spawnCli } from '../../helpers/run-cli.ts'
import type { TargetsJson } from '../../helpers/targets-json.ts'
import { openAgentLab, transcriptLines } from '../agent-lab.ts'
import { openSangamCodex } from '../sangam-codex-pane.ts'

/**
 * `sangam codex` runs the real Codex 0.171.0 TUI against its app-server on a private socket; the
 * session's SessionStart hook (installed and trusted by `install-hooks`) records the endpoint, and
 * wake in place starts a turn in the live session over that socket: the TUI shows it, the fake
 * model receives the prompt once as the thread's second user turn, the rollout has it. When the
 * TUI quits, the server and its socket are gone and a wake is a clear SESSION_UNREACHABLE.
 */
test('a real Codex TUI under sangam codex takes a turn woken in place over its socket, once', async () => {
  await using lab = await openAgentLab()
  const tuiEnv = lab.codexTui()
  await lab.sangamJson(['install-hooks'])
  lab.openai.scriptTurns([[{ text: 'READY-first-turn.' }], [{ text: 'WOKEN-second-turn on it.' }]])
  await using pane = await openSangamCodex(lab, tuiEnv, ['--json'])
  const sessionId = lab.openai.turns()[0]?.sessionId ?? null
  assert.ok(sessionId, 'the model request names its thread')

  const db = openDatabaseFile(lab.databaseFile(), { readonly: true })
  try {
    const wake = codexWake({ db, clientVersion: version })
    const endpoint = wake.endpointOf(sessionId)
    assert.ok(endpoint, `the session's hook recorded its endpoint\n${lab.heartbeats()}`)
    const socket = socketPathOf(endpoint)
    assert.ok(socket)
    assert.match(socket, /\/\.sangam\/codex\/app-server-\d+\.sock$/)
    assert.equal(statSync(socket).mode & 0o777, 0o600, 'only the user can connect')
    assert.equal(statSync(dirname(socket)).mode & 0o777, 0o700)

    const note = 'WAKE-NOTE-4d2 bob tagged you: the API tests are red'
    await wake.wake(endpoint, sessionId, note)
    await pane.waitFor(/WOKEN-second-turn on it\./, 'the woken turn in the TUI')
    assert.deepEqual(
      lab.openai.promptsWith(note).map((turn) => [turn.sessionId, turn.index]),
      [[sessionId, 1]],
      'the model received the message once, as the thread’s second user turn',
    )
    assert.match(transcriptLines(lab.codexRollout(sessionId), 'WAKE-NOTE-4d2'), /WAKE-NOTE-4d2/)

    await pane.type('/quit')
    await pane.waitFor(/\[pane command exited 0\]/, 'sangam codex exiting with Codex')
    assert.match(
      pane.screen(),
      new RegExp(`"sessions": \\[\\s*"${sessionId}"`),
      'its --json names the session',
    )
    assert.throws(() => statSync(socket), /ENOENT/, 'the socket is removed')
    assert.equal(wake.endpointOf(sessionId), null, 'a finished launcher is no endpoint')
    // The TUI's own SessionEnd ran as it quit: the session is dormant, and a tag resumes it.
    const listed = await lab.sangamJson<{ sessions: { id: string; presence: string; delivery: string }[] }>([
      'sessions',
    ])
    const ended = listed.sessions.find((session) => session.id === sessionId)
    assert.deepEqual([ended?.presence, ended?.delivery], ['offline', 'resume'], JSON.stringify(listed))
    await assert.rejects(wake.wake(endpoint, sessionId, 'too late'), (error: unknown) => {
      assert.ok(isSangamError(error))
      assert.equal(error.code, 'SESSION_UNREACHABLE')
      assert.match(error.message, /its app-server socket .* is gone/)
      return true
    })
  } finally {
    db.close()
  }
})

/** Issue 10, scenario 2: a tag posted in the room reaches a live Codex session through the daemon. */
test('a tag to a real Codex session open under sangam codex is delivered by the daemon as a turn in place, once', async () => {
  await using lab = await openAgentLab()
  const tuiEnv = lab.codexTui()
  await lab.sangamJson(['install-hooks'])
  lab.openai.scriptTurns([[{ text: 'READY-first-turn.' }], [{ text: 'DAEMON-WOKEN on it.' }]])
  await using pane = await openSangamCodex(lab, tuiEnv)
  const sessionId = lab.openai.turns()[0]?.sessionId ?? null
  assert.ok(sessionId)
  const targets = await lab.sangamJson<TargetsJson>(['targets'])
  const handle = targets.agents.find((agent) => agent.sessionId === sessionId)?.handle
  assert.ok(handle, `${JSON.stringify(targets)}\n${lab.heartbeats()}`)

  const daemon = spawnCli(['up'], { cwd: lab.repo.path, env: lab.env })
  let daemonOut = ''
  daemon.stdout?.on('data', (chunk: Buffer) => {
    daemonOut += chunk.toString('utf8')
  })
  daemon.stderr?.on('data', (chunk: Buffer) => {
    daemonOut += chunk.toString('utf8')
  })
  try {
    // The daemon delivers what is posted once it runs (D173): wait until it has caught up.
    const deadline = Date.now() + 60_000
    while (!/tailing/.test(daemonOut)) {
      assert.ok(Date.now() < deadline, `the daemon never caught up:\n${daemonOut}`)
      await new Promise((done) => setTimeout(done, 100))
    }
    const note = 'DAEMON-NOTE-77a bob: please look at the red API tests'
    await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })
    await pane.waitFor(/DAEMON-WOKEN on it\./, 'the turn the tag started').catch(async (error: Error) => {
      const ledger = await lab.sangam(['deliveries', '--json'])
      throw new Error(`${error.message}\ndaemon:\n${daemonOut}\nledger:\n${ledger.stdout}${ledger.stderr}`)
    })
    assert.deepEqual(
      lab.openai.promptsWith('DAEMON-NOTE-77a').map((turn) => [turn.sessionId, turn.index]),
      [[sessionId, 1]],
      'the model received the tag once, as the thread’s second user turn',
    )
    const ledger = await lab.sangamJson<{ turns: { sessionId: string; channel: string }[] }>(['deliveries'])
    assert.deepEqual(
      ledger.turns.filter((turn) => turn.sessionId === sessionId).map((turn) => turn.channel),
      ['wake'],
      'one turn, carried by wake in place',
    )
  } finally {
    daemon.kill('SIGTERM')
    await new Promise((resolve) => daemon.once('close', resolve))
  }
})
