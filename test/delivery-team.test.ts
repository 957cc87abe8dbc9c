import assert from 'node:assert/strict'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import type { DeliveriesJson } from './helpers/deliveries-json.ts'
import { fakeTurns, withFakeVendors } from './helpers/fake-vendor.ts'
import { runCli, runCliJson } from './helpers/run-cli.ts'
import { attachBoth, type Machine, syncWorld } from './helpers/sync-world.ts'
import { eventually } from './helpers/up-process.ts'
import { runAgentHook } from './hooks-agent-run.ts'

/**
 * Issue 10's "who delivers", across machines, every part real: two machines (own HOME, SANGAM_HOME
 * and clone), one `sangam serve`, both `sangam up` daemons, a real executable standing in for
 * `claude` on each machine's PATH. A tag posted on machine B for a dormant session that lives on
 * machine A reaches it through the server: A's daemon starts exactly one turn with the message;
 * B's daemon, which sees the same message and the same session in its replica, starts none.
 */
after(killAllServes)

const sessionId = 'c1aude00-0000-4000-8000-00000000a11c'

async function hook(machine: Machine, name: string, more: Record<string, unknown> = {}): Promise<void> {
  const run = await runAgentHook(
    'claude',
    {
      session_id: sessionId,
      transcript_path: null,
      cwd: machine.repo,
      hook_event_name: name,
      prompt: 'go',
      source: 'startup',
      ...more,
    },
    { cwd: machine.repo, env: machine.env },
  )
  assert.equal(run.code, 0, run.stderr)
}

test('a tag posted on machine B for a dormant session on machine A starts one turn, on A only', async () => {
  await using world = await syncWorld()
  const { a, b } = world
  const logA = withFakeVendors(a, ['claude'])
  const logB = withFakeVendors(b, ['claude'])
  await attachBoth(world)

  // A Claude Code session ran on A and ended: dormant, continued by resume on A.
  await hook(a, 'SessionStart')
  await hook(a, 'SessionEnd', { reason: 'other' })
  const listed = await runCliJson<{ sessions: { id: string; handle: string | null }[] }>(['sessions'], {
    cwd: a.repo,
    env: a.env,
  })
  const handle = listed.sessions.find((session) => session.id === sessionId)?.handle
  assert.ok(handle, JSON.stringify(listed))

  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])
  await Promise.all([upA.waitFor('ready'), upB.waitFor('ready')])
  // B learns A's session (presence travels) before its human tags it.
  await eventually(
    async () => {
      const seen = await runCliJson<{ sessions: { id: string }[] }>(['sessions'], { cwd: b.repo, env: b.env })
      return seen.sessions.some((session) => session.id === sessionId)
    },
    60_000,
    'A’s session in B’s replica',
  )

  const posted = await runCli(['post', '--to', `@${handle}`, 'CROSS-7f1 bob: the deploy is red, look'], {
    cwd: b.repo,
    env: { ...b.env, SANGAM_USER: 'bob@example.com' },
  })
  assert.equal(posted.code, 0, posted.stderr)

  await eventually(() => fakeTurns(logA).length === 1, 60_000, 'A’s daemon started the turn').catch(
    (error: Error) => {
      throw new Error(`${error.message}\nA:\n${upA.stderr()}\nB:\n${upB.stderr()}`)
    },
  )
  const [turn] = fakeTurns(logA)
  assert.ok(turn)
  assert.ok(turn.argv.includes('--resume') && turn.argv.includes(sessionId), turn.argv.join(' '))
  assert.match(turn.stdin, /CROSS-7f1/, 'the prompt, on stdin, carries the message')
  assert.match(turn.stdin, /bob/, 'and says who tagged')

  const ledgerA = await runCliJson<DeliveriesJson>(['deliveries'], { cwd: a.repo, env: a.env })
  assert.deepEqual(
    ledgerA.turns.map((row) => [row.sessionId, row.channel, row.why]),
    [[sessionId, 'resume', 'tag']],
  )
  // Give B's daemon every chance to do the wrong thing: it never starts a turn for A's session.
  await new Promise((done) => setTimeout(done, 3000))
  assert.equal(fakeTurns(logA).length, 1, 'exactly one turn')
  assert.deepEqual(fakeTurns(logB), [], 'B never runs a vendor CLI for a session on A')
  const ledgerB = await runCliJson<DeliveriesJson>(['deliveries'], { cwd: b.repo, env: b.env })
  assert.deepEqual(ledgerB.turns, [], 'no turn in B’s ledger')
})
