import assert from 'node:assert/strict'
import { appendFileSync } from 'node:fs'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { runCli } from './helpers/run-cli.ts'
import { type Machine, syncWorld } from './helpers/sync-world.ts'
import { eventually } from './helpers/up-process.ts'

/**
 * What leaves a machine: human turns, assistant messages, thinking, tool calls and notes; tool
 * output only when the project opts in; `system` events never.
 */
after(killAllServes)

function line(machine: Machine, session: string, record: Record<string, unknown>): string {
  return `${JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: machine.repo,
    sessionId: session,
    version: '2.1.80',
    gitBranch: 'main',
    uuid: `${Math.random()}`,
    timestamp: new Date().toISOString(),
    ...record,
  })}\n`
}

/** A tool call and its output, then a CLI recap (a `system` event), in A's transcript. */
function toolRound(machine: Machine, session: string, id: string, output: string, recap: string): void {
  const path = machine.say(session, `run the ${id} check`)
  appendFileSync(
    path,
    line(machine, session, {
      type: 'assistant',
      message: {
        id: `msg_${id}`,
        role: 'assistant',
        model: 'm',
        content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'Bash', input: { command: `./check ${id}` } }],
      },
    }) +
      line(machine, session, {
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${id}`, content: output }],
        },
      }) +
      line(machine, session, { type: 'system', subtype: 'away_summary', content: recap }),
  )
}

test('tool output stays on the machine unless the project opts in; system events never leave', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const connection = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  assert.equal((await b.cli(['join'], connection)).code, 0)
  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])

  toolRound(a, 'alice-tools', 'quokka', 'quokka output: 3 files differ', 'recap meerkat')
  a.say('alice-tools', 'marker platypus')
  await eventually(() => b.search('platypus') === 1, 20_000, 'the marker on bob')
  await eventually(
    () => a.search('meerkat') === 1 && a.search('quokka') >= 2,
    5000,
    'all of it captured on alice',
  )
  const kinds = (word: string, machine: Machine) =>
    machine.events().flatMap((event) => (event.text.includes(word) ? [event.kind] : []))
  assert.deepEqual(kinds('quokka', b).sort(), ['human', 'tool_call'], 'the call travels, its output does not')
  assert.deepEqual(kinds('meerkat', b), [], 'system events never leave')

  const optIn = await a.cliJson<{ server: unknown }>(['init', '--no-mcp', '--share-tool-output'])
  assert.equal(optIn.server, null)
  toolRound(a, 'alice-tools', 'wombat', 'wombat output: all green', 'recap mongoose')
  a.say('alice-tools', 'marker narwhal')
  await eventually(() => b.search('narwhal') === 1, 20_000, 'the second marker on bob')
  assert.deepEqual(
    kinds('wombat', b).sort(),
    ['human', 'tool_call', 'tool_output'],
    'opted in: output shared',
  )
  assert.deepEqual(kinds('quokka', b).sort(), ['human', 'tool_call'], 'output pushed before stays unshared')
  assert.deepEqual(kinds('mongoose', b), [])
})
