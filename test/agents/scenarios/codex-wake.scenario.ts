import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { dirname } from 'node:path'
import { test } from 'node:test'
import { version } from '../../../src/config/version.ts'
import { codexWake, socketPathOf } from '../../../src/services/delivery/codex-wake.ts'
import { isSangamError } from '../../../src/shared/sangam-error.ts'
import { openDatabaseFile } from '../../../src/store/database.ts'
import { cliEntry } from '../../helpers/run-cli.ts'
import { openAgentLab, transcriptLines } from '../agent-lab.ts'
import { openTmuxPane } from '../tmux-pane.ts'

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
  await using pane = openTmuxPane(
    lab.home,
    lab.repo.path,
    `${process.execPath} ${cliEntry} codex --json "Start here."`,
    tuiEnv,
  )
  await pane.waitFor(/READY-first-turn/, 'the first reply')
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
