import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import type { Attachment } from '../src/sync/services/attachment.ts'
import { SyncHttpClient } from '../src/sync/services/http-client.ts'
import { runCli } from './helpers/run-cli.ts'
import { syncWorld } from './helpers/sync-world.ts'
import { eventually } from './helpers/up-process.ts'

/**
 * A team connecting at once (a morning): ten machines, each its own HOME and SANGAM_HOME, one
 * `sangam serve`, every `sangam up` started together. Every daemon subscribes once: none drops,
 * none has to try again.
 */
after(killAllServes)

test('ten daemons started together on one sangam serve all subscribe, none dropped or retried', async () => {
  await using world = await syncWorld({ machines: 10 })
  const [first, ...others] = world.machines
  assert.ok(first)
  await first.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const line = (await runCli(['connection'], { cwd: first.repo, env: first.env })).stdout.trim()
  for (const machine of others) assert.equal((await machine.cli(['join', line])).code, 0)

  const ups = world.machines.map((machine) => machine.up())
  try {
    await Promise.all(ups.map((up) => up.waitFor('sync-connected', 600_000)))
    // The start's traffic too: every machine's worktree state has reached every machine.
    await eventually(
      () =>
        ups.every((up) =>
          up.statuses.some((status) => status.type === 'sync-applied' && Number(status.worktreeStates) > 0),
        ) && ups.every((up) => up.statuses.some((status) => status.type === 'sync-pushed')),
      300_000,
      'the start pushed and received',
    )
    const attachment = JSON.parse(readFileSync(join(first.projectDir, 'sync.json'), 'utf8')) as Attachment
    const info = await new SyncHttpClient(attachment).info()
    assert.ok(info.ok)
    assert.equal(info.value.connections, 10, 'the server counts ten subscribed sockets')
    for (const [index, up] of ups.entries()) {
      const name = world.machines[index]?.name
      const connected = up.statuses.filter((status) => status.type === 'sync-connected').length
      const offline = up.statuses.filter((status) => status.type === 'sync-offline')
      assert.deepEqual(offline, [], `${name} lost or retried its connection`)
      assert.equal(connected, 1, `${name} connected ${connected} times`)
      assert.doesNotMatch(up.stderr(), /sync socket closed|sync connection failed/, `${name}: ${up.stderr()}`)
    }
  } finally {
    await Promise.all(ups.map((up) => up.stop()))
  }
})
