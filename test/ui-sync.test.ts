import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { attachBoth, syncWorld } from './helpers/sync-world.ts'
import { startUi } from './helpers/ui-process.ts'

/**
 * A teammate's change reaches an open dashboard: two machines attached to one `sangam serve`
 * (workerd), alice's daemon pushing, bob's `up --ui` applying what the server sends into his
 * replica, which his dashboard's change feed sees like any other commit.
 */
after(killAllServes)

test("a teammate's post, through the team server and bob's daemon, reaches bob's open dashboard", async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await attachBoth(world)

  const alice = a.up()
  await using _alice = { [Symbol.asyncDispose]: async () => void (await alice.stop()) }
  await using ui = await startUi(['up', '--ui', '--no-open', '--json'], { cwd: b.repo, env: b.env })
  await alice.waitFor('sync-connected')

  const now = (await ui.request('/api/now')).json<{ live: { daemon: boolean; attached: boolean } }>()
  assert.deepEqual(now.live, { daemon: true, attached: true })
  const stream = ui.stream()
  await stream.waitFor((event) => event.event === 'hello')

  const { message } = await a.cliJson<{ message: { id: string } }>([
    'post',
    'alice here: the lanes page is mine',
  ])
  await stream.waitFor(
    (event) => (JSON.parse(event.data) as { topics?: string[] }).topics?.includes('messages') === true,
    30_000,
  )
  stream.close()
  const { messages } = (await ui.request('/api/messages')).json<{
    messages: { id: string; sender: string }[]
  }>()
  assert.deepEqual(
    messages.map((each) => [each.id, each.sender]),
    [[message.id, 'alice@x.dev']],
  )
})
