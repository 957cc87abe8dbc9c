import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { attachBoth, syncWorld } from './helpers/sync-world.ts'
import { eventually } from './helpers/up-process.ts'

after(killAllServes)

interface TargetsJson {
  people: { handle: string; name: string; state: string; machines: string[]; machineNames: string[] }[]
}

/**
 * A person of the team is in the room from their first `sangam up`, on every machine: a teammate
 * who has neither chatted nor run an agent session yet (the first day) is listed and can be tagged.
 * Before, machine B refused `@alice` ("nobody in the room is called") until alice chatted.
 */
test('a teammate with no chat and no session yet is a person on the other machine, and can be tagged', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await attachBoth(world)
  const ids = {
    a: (await a.cliJson<{ machine: { id: string } }>(['identify', '--machine', 'alice-box'])).machine.id,
    b: (await b.cliJson<{ machine: { id: string } }>(['identify', '--machine', 'bob-box'])).machine.id,
  }

  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])

  const person = async (on: typeof a, name: string) =>
    (await on.cliJson<TargetsJson>(['targets'])).people.find((each) => each.name === name)
  await eventually(
    async () =>
      (await person(b, 'alice@x.dev')) !== undefined && (await person(a, 'bob@x.dev')) !== undefined,
    120_000,
    'each machine lists the other machine’s person',
  )
  assert.deepEqual(await person(b, 'alice@x.dev'), {
    handle: 'alice',
    name: 'alice@x.dev',
    state: 'offline',
    machines: [ids.a],
    machineNames: ['alice-box'],
  })
  assert.deepEqual((await person(a, 'bob@x.dev'))?.machines, [ids.b])
  assert.equal((await b.cliJson<TargetsJson>(['targets'])).people.length, 2, 'each person once')

  const posted = await b.cli(['post', 'alice, the parser test is red: @alice', '--json'])
  assert.equal(posted.code, 0, posted.stdout + posted.stderr)
  assert.deepEqual((JSON.parse(posted.stdout) as { message: { recipients: string[] } }).message.recipients, [
    '@alice',
  ])
})
