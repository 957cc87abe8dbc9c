import assert from 'node:assert/strict'
import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openConnection } from '../../src/store/connection.ts'
import { SyncClient, SyncSocket } from './helpers/sync-client.ts'
import { newProjectId, newProjectKey } from './helpers/sync-fixture.ts'
import { startTestServer, type TestServer } from './helpers/test-server.ts'

/**
 * The registrar knows which project ids exist: a request for one that was never created is
 * refused before any object for it starts (workerd would create its database file), and projects
 * created before the registrar kept ids still open.
 */

/** Every file under the server's Durable Object storage, with its size. */
function objectFiles(server: TestServer): Map<string, number> {
  const files = new Map<string, number>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else files.set(path, statSync(path).size)
    }
  }
  walk(join(server.dataDir, 'durable-objects'))
  return files
}

const databases = (files: Map<string, number>): string[] =>
  [...files.keys()].filter((path) => path.endsWith('.sqlite')).sort()

/** 300 requests with a wrong key for ids never created, spread over addresses (under every failure limit), all refused 401. */
async function strangers(server: TestServer, count = 300): Promise<void> {
  const actions = ['info', 'pull', 'presence', 'leases', 'lock'] as const
  for (let index = 0; index < count; index++) {
    const stranger = new SyncClient(server.url, newProjectId(), newProjectKey())
    const headers = { 'cf-connecting-ip': `198.51.100.${index % 10}` }
    if (index % 30 === 29) {
      await assert.rejects(
        SyncSocket.open(stranger.url('socket').replace(/^http/, 'ws'), stranger.key),
        /refused with 401/,
      )
      continue
    }
    const reply =
      index % 3 === 0
        ? await stranger.request('push', { body: { clientId: 'stranger-1', records: [] }, headers })
        : await stranger.request(actions[index % actions.length] ?? 'info', { headers })
    assert.equal(reply.status, 401, `request ${index}: ${JSON.stringify(reply.body)}`)
  }
}

/** The registrar's database (the one object file with its list), deleted: a data dir from before it kept ids. */
function forgetRegistrar(server: TestServer): void {
  for (const file of databases(objectFiles(server))) {
    const db = openConnection(file, { readOnly: true, timeoutMs: 5000 })
    const isRegistrar =
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'registered_project'").get() !== undefined
    db.close()
    if (isRegistrar) for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true })
  }
}

test('300 requests with a wrong key for ids that were never created start no object: no new file', async () => {
  await using server = await startTestServer()
  const team = await server.newProject()
  const before = databases(objectFiles(server))
  await strangers(server)
  assert.deepEqual(databases(objectFiles(server)), before, 'no object database was created')
  assert.equal((await team.request('info')).status, 200, 'the real project still opens')
  const wrongKey = new SyncClient(server.url, team.projectId, newProjectKey())
  assert.equal((await wrongKey.request('info')).status, 401, 'a wrong key for it is still refused')
})

test('sangam serve lists the projects of a data dir from before the registrar kept ids; unknown ids stay refused', async () => {
  await using server = await startTestServer()
  const team = await server.newProject()
  // What an older serve left: the project's object, and a registrar that kept nothing.
  await server.restart(undefined, () => forgetRegistrar(server))
  assert.equal((await team.request('info')).status, 200, 'serve listed the project at start')
  const before = databases(objectFiles(server))
  await strangers(server, 60)
  assert.deepEqual(databases(objectFiles(server)), before, 'unknown ids started no object')
})

test('on a server that cannot list its projects, a project the registrar lacks is adopted by its own key within the window', async () => {
  await using server = await startTestServer()
  const team = await server.newProject()
  // Cloudflare: no list from serve, the adoption window open (the default there).
  const open = { ADOPT_UNREGISTERED_DAYS: '30', REGISTERED_PROJECTS: '[]' }
  const closed = { ADOPT_UNREGISTERED_DAYS: '0', REGISTERED_PROJECTS: '[]' }
  await server.restart(open, () => forgetRegistrar(server))
  const wrongKey = new SyncClient(server.url, team.projectId, newProjectKey())
  assert.equal((await wrongKey.request('info')).status, 401)
  await server.restart(closed)
  assert.equal((await team.request('info')).status, 401, 'a wrong key adopted nothing')
  await server.restart(open)
  assert.equal((await team.request('info')).status, 200, 'its own key opens it, and adopts it')
  await server.restart(closed)
  assert.equal((await team.request('info')).status, 200, 'adopted for good: the window is closed now')
  const before = databases(objectFiles(server))
  await strangers(server, 60)
  assert.deepEqual(
    databases(objectFiles(server)),
    before,
    'with the window closed, unknown ids start nothing',
  )
})
