import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../../test/helpers/tmp-git-repo.ts'
import { codexDaemonListens } from './codex-daemon.ts'

test("Codex's daemon counts as listening only while its control socket exists", async () => {
  await using home = tmpDir('sangam-codex-daemon-')
  const codexHome = join(home.path, '.codex')
  const dir = join(codexHome, 'app-server-control')
  mkdirSync(dir, { recursive: true })
  assert.equal(codexDaemonListens({ CODEX_HOME: codexHome }), false, 'no daemon')
  assert.equal(codexDaemonListens({ HOME: home.path }), false, 'the default CODEX_HOME, no daemon')

  const socket = join(dir, 'app-server-control.sock')
  const server = createServer((connection) => connection.destroy())
  await new Promise<void>((resolve) => server.listen(socket, resolve))
  try {
    assert.equal(codexDaemonListens({ CODEX_HOME: codexHome }), true)
    assert.equal(codexDaemonListens({ HOME: home.path }), true, 'found under $HOME/.codex by default')
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  writeFileSync(socket, 'not a socket')
  assert.equal(codexDaemonListens({ CODEX_HOME: codexHome }), false, 'a plain file is no daemon')
})
