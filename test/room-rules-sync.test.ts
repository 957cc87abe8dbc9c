import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { runCli } from './helpers/run-cli.ts'
import { type Machine, syncWorld } from './helpers/sync-world.ts'

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

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

test('rules set on one machine reaches the other machine of the team; a later change there wins on both', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout.trim()
  const joined = await b.cli(['join', line])
  assert.equal(joined.code, 0, joined.stderr)
  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])

  await a.cliJson(['rules', 'set', 'one-actor-per-worktree', 'refuse'])
  await until(
    async () => (await rule(b, 'one-actor-per-worktree'))?.rung === 'refuse',
    20_000,
    'the rule on bob',
  )
  assert.equal((await rule(b, 'one-actor-per-worktree'))?.decided, true)

  await b.cliJson(['option-set', 'leases.auto-lease', 'warn'])
  await until(
    async () => (await rule(a, 'lease-collision'))?.rung === 'warn',
    20_000,
    'lease-collision on alice',
  )
  assert.equal((await rule(a, 'one-actor-per-worktree'))?.rung, 'refuse')
})
