import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { collectOutput } from './helpers/child-output.ts'
import { projectRoot } from './helpers/run-cli.ts'
import { attachBoth, type Machine, type SyncWorld, syncWorld } from './helpers/sync-world.ts'
import { claudeEdit, runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/** Leases while attached: the server arbitrates; no answer is never a grant. */
after(killAllServes)

interface LeasesJson {
  leases: {
    pattern: string
    token: number
    kind: string
    holder: { human: string; sessionId: string | null }
  }[]
}

async function attached(): Promise<SyncWorld> {
  const world = await syncWorld()
  await attachBoth(world, { lineOnStdin: true })
  return world
}

const leases = async (machine: Machine) => (await machine.cliJson<LeasesJson>(['leases'])).leases

test('a claim the server did not answer is unconfirmed (exit 6) and grants nothing here', async () => {
  await using world = await attached()
  const { a } = world
  await world.server.stop()
  const result = await a.cli(['claim', 'src/parser.ts', '--reason', 'parser rewrite', '--json'])
  assert.equal(result.code, 6, result.stderr)
  assert.equal((JSON.parse(result.stdout) as { error: { code: string } }).error.code, 'UNCONFIRMED')
  assert.match(result.stderr, /unconfirmed: nothing was granted/)
  assert.deepEqual(await leases(a), [])
  const release = await a.cli(['release'])
  assert.equal(release.code, 6, 'a release is not confirmed either')
  await world.restartServer('stop')
  assert.equal((await a.cli(['claim', 'src/parser.ts', '--reason', 'parser rewrite'])).code, 0)
  assert.deepEqual(
    (await leases(a)).map((lease) => lease.pattern),
    ['src/parser.ts'],
    'the granted lease is mirrored at once',
  )
})

test('an edit while the server is down is allowed, its auto-lease kept for afterwards, and the hook says so', async () => {
  await using world = await attached()
  const { a } = world
  await world.server.stop()
  const run = await runAgentHook('claude', claudeEdit(a.repo, join(a.repo, 'src', 'a.ts')), {
    cwd: a.repo,
    env: a.env,
  })
  assert.equal(run.code, 0)
  assert.equal(run.output?.hookSpecificOutput?.permissionDecision, undefined)
  assert.match(
    run.stderr,
    /kept and done afterwards: the auto-lease of this edit's file \(could not reach the sync server/,
  )
  assert.deepEqual(await leases(a), [])
})

test("an agent's auto-lease is taken on the server and ends with its session", async () => {
  await using world = await attached()
  const { a, b } = world
  const session = 'c1a0de00-0000-4000-8000-0000000000aa'
  const edit = await runAgentHook('claude', claudeEdit(a.repo, join(a.repo, 'src', 'a.ts'), session), {
    cwd: a.repo,
    env: a.env,
  })
  assert.equal(edit.code, 0, edit.stderr)
  assert.equal(edit.stderr, '')
  assert.deepEqual(
    (await leases(a)).map((lease) => [lease.pattern, lease.kind, lease.holder.sessionId]),
    [['src/a.ts', 'auto', session]],
  )
  assert.equal((await b.cli(['claim', 'src/a.ts', '--reason', 'mine now'])).code, 5, 'the server holds it')
  const end = await runAgentHook('claude', sessionEvent(a.repo, 'SessionEnd', session), {
    cwd: a.repo,
    env: a.env,
  })
  assert.equal(end.code, 0, end.stderr)
  assert.deepEqual(await leases(a), [])
  assert.equal((await b.cli(['claim', 'src/a.ts', '--reason', 'mine now'])).code, 0, 'released on the server')
})

test("an edit on a replica that has not heard of a teammate's lease is still denied: the server knows", async () => {
  await using world = await attached()
  const { a, b } = world
  await b.cliJson(['claim', 'src/b.ts', '--reason', 'bob refactors b'])
  assert.deepEqual(await leases(a), [], "no daemon on alice: her mirror has not heard of bob's lease")
  const run = await runAgentHook('claude', claudeEdit(a.repo, join(a.repo, 'src', 'b.ts')), {
    cwd: a.repo,
    env: a.env,
  })
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.output?.hookSpecificOutput?.permissionDecision, 'deny', run.stdout)
  assert.match(run.output?.hookSpecificOutput?.permissionDecisionReason ?? '', /leased to bob@x\.dev/)
  assert.deepEqual(
    (await leases(a)).map((lease) => [lease.pattern, lease.holder.human]),
    [['src/b.ts', 'bob@x.dev']],
    'the refusal taught the mirror',
  )
})

test('1,000 concurrent claims through the server from both machines: exactly one winner, everywhere', async () => {
  await using world = await attached()
  const { a, b } = world
  const upA = a.up()
  const upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])
  const race = (machine: Machine, prefix: string) =>
    racer([machine.database, machine.projectDir, '500', prefix, 'src/store/**'], machine.env)
  const [fromA, fromB] = await Promise.all([race(a, 'alice'), race(b, 'bob')])
  const outcomes = [...fromA, ...fromB]
  assert.deepEqual(
    outcomes.filter((outcome) => 'error' in outcome),
    [],
    'every claimant got an answer',
  )
  const winners = outcomes.filter((outcome) => outcome.granted === true)
  assert.equal(winners.length, 1)
  const token = winners[0]?.token
  assert.ok(
    outcomes.every((outcome) => outcome.token === token),
    'every refusal names the winning lease',
  )
  for (const machine of [a, b]) {
    const mirrored = await waitForLeases(machine, 1)
    assert.deepEqual(
      mirrored.map((lease) => [lease.pattern, lease.token]),
      [['src/store/**', token]],
      `${machine.name}'s replica mirrors the one winner`,
    )
  }
  await upA.stop()
  await upB.stop()
})

async function waitForLeases(machine: Machine, count: number): Promise<LeasesJson['leases']> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const current = await leases(machine)
    if (current.length === count || Date.now() > deadline) return current
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

type RaceOutcome =
  | { granted: boolean; token: number }
  | { error: string; granted?: undefined; token?: undefined }

function racer(args: readonly string[], env: Record<string, string | undefined>): Promise<RaceOutcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'test', 'helpers', 'sync-claim-racer.ts'), ...args],
      {
        cwd: projectRoot,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const output = collectOutput(child)
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(output.stdout) as RaceOutcome[])
        : reject(new Error(`racer exited ${code}: ${output.stderr}`)),
    )
  })
}
