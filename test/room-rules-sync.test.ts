import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { connectedDaemons, type Machine, syncWorld } from './helpers/sync-world.ts'
import { eventually } from './helpers/up-process.ts'

/**
 * A house rule is the team's: set on one machine, it reaches the other through the team server
 * as a room.option record (two machines, own SANGAM_HOME and clone, one `sangam serve` in workerd).
 */
after(killAllServes)

interface Rule {
  readonly name: string
  readonly rung: string
  readonly decided: boolean
}

async function rule(machine: Machine, name: string): Promise<Rule | undefined> {
  return (await machine.cliJson<{ rules: Rule[] }>(['rules'])).rules.find((entry) => entry.name === name)
}

test('rules set on one machine reaches the other machine of the team; a later change there wins on both', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await using _daemons = await connectedDaemons(world)

  await a.cliJson(['rules', 'set', 'one-actor-per-worktree', 'refuse'])
  await eventually(
    async () => (await rule(b, 'one-actor-per-worktree'))?.rung === 'refuse',
    20_000,
    'the rule on bob',
  )
  assert.equal((await rule(b, 'one-actor-per-worktree'))?.decided, true)

  await b.cliJson(['option-set', 'leases.auto-lease', 'warn'])
  await eventually(
    async () => (await rule(a, 'lease-collision'))?.rung === 'warn',
    20_000,
    'lease-collision on alice',
  )
  assert.equal((await rule(a, 'one-actor-per-worktree'))?.rung, 'refuse')
})
