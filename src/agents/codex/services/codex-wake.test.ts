import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../../project/store/project-database.ts'
import { isSangamError } from '../../../shared/sangam-error.ts'
import { readCodexEndpoint, recordCodexEndpoint } from '../store/codex-endpoint-table.ts'
import { codexWake, socketPathOf } from './codex-wake.ts'

/**
 * Wake in place against what can go wrong with a real socket. The turn itself, against the real
 * Codex app-server, is in test/agents/scenarios/delivery-codex.scenario.ts.
 */

/** A pid that no process has: one that just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  assert.ok(child.pid)
  return child.pid
}

/** A listening Unix socket that is not a Codex app-server: it hangs up on every connection. */
async function hangUpServer(path: string): Promise<Server> {
  const server = createServer((connection) => connection.destroy())
  await new Promise<void>((resolve) => server.listen(path, resolve))
  return server
}

const expectUnreachable = (pattern: RegExp) => (error: unknown) => {
  assert.ok(isSangamError(error), String(error))
  assert.equal(error.code, 'SESSION_UNREACHABLE')
  assert.match(error.message, pattern)
  return true
}

test('endpointOf knows only a session whose launcher runs and whose socket listens', async () => {
  await using dir = tmpDir('sangam-codex-wake-')
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    const socket = join(dir.path, 'app.sock')
    const endpoint = `unix://${socket}`
    const wake = codexWake({ db, clientVersion: 'test' })
    assert.equal(wake.endpointOf('unknown-session'), null, 'never recorded')

    recordCodexEndpoint(db, { sessionId: 'dead', endpoint, launcherPid: deadPid(), recordedAt: 1 })
    recordCodexEndpoint(db, { sessionId: 'live', endpoint, launcherPid: process.pid, recordedAt: 2 })
    assert.equal(wake.endpointOf('live'), null, 'the launcher runs but nothing listens on the socket')

    const server = await hangUpServer(socket)
    try {
      assert.equal(wake.endpointOf('live'), endpoint)
      assert.equal(wake.endpointOf('dead'), null, 'a socket file outlives a killed launcher: not trusted')
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
    recordCodexEndpoint(db, {
      sessionId: 'live',
      endpoint: 'unix:///elsewhere',
      launcherPid: 7,
      recordedAt: 3,
    })
    assert.deepEqual(readCodexEndpoint(db, 'live'), {
      sessionId: 'live',
      endpoint: 'unix:///elsewhere',
      launcherPid: 7,
      recordedAt: 3,
    })
  } finally {
    db.close()
  }
})

test('a wake whose app-server socket is gone is a SESSION_UNREACHABLE error naming the socket', async () => {
  await using dir = tmpDir('sangam-codex-wake-')
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    const socket = join(dir.path, 'gone.sock')
    await assert.rejects(
      codexWake({ db, clientVersion: 'test' }).wake(`unix://${socket}`, 'thread-1', 'hello'),
      expectUnreachable(/thread-1 cannot be woken in place: its app-server socket .*gone\.sock is gone/),
    )
  } finally {
    db.close()
  }
})

test('a wake on a socket that hangs up (no Codex app-server behind it) is SESSION_UNREACHABLE', async () => {
  await using dir = tmpDir('sangam-codex-wake-')
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  const socket = join(dir.path, 'other.sock')
  const server = await hangUpServer(socket)
  try {
    await assert.rejects(
      codexWake({ db, clientVersion: 'test', timeoutMs: 5000 }).wake(`unix://${socket}`, 'thread-2', 'hi'),
      expectUnreachable(/thread-2 cannot be woken in place: its app-server at .*other\.sock/),
    )
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    db.close()
  }
})

test('an endpoint that is not unix:// is refused as invalid input, and parsed only in that form', async () => {
  await using dir = tmpDir('sangam-codex-wake-')
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    await assert.rejects(
      codexWake({ db, clientVersion: 'test' }).wake('ws://127.0.0.1:9', 't', 'p'),
      (error: unknown) => isSangamError(error) && error.code === 'INVALID_INPUT',
    )
    assert.equal(socketPathOf('unix:///run/a.sock'), '/run/a.sock')
    assert.equal(socketPathOf('unix://relative.sock'), null)
    assert.equal(socketPathOf('ws://127.0.0.1:9'), null)
  } finally {
    db.close()
  }
})
