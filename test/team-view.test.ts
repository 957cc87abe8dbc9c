import assert from 'node:assert/strict'
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { claudeHuman, codexHuman, codexMeta } from './helpers/capture-transcripts.ts'
import { fakeTurns, withFakeVendors } from './helpers/fake-vendor.ts'
import { type CliResult, runCli } from './helpers/run-cli.ts'
import { type Machine, type SyncWorld, sharedRemote, syncWorld } from './helpers/sync-world.ts'
import { git } from './helpers/tmp-git-repo.ts'
import { startUi, type UiProcess } from './helpers/ui-process.ts'
import { eventually, type UpProcess } from './helpers/up-process.ts'

/**
 * Issue 20's "one team, seen the same from every machine", every part real: two machines (own
 * HOME, SANGAM_HOME and clone), one `sangam serve` (workerd), both daemons (`sangam up`, alice's
 * with the dashboard). Bob's machine publishes from a lane, runs agent sessions whose hooks never
 * fired (a Claude Code session that ended two days ago, a Codex session an hour ago), and chats;
 * alice's machine must show all of it, once each, with bob's machine by name: in `log`, `targets`,
 * `sessions`, `send`, `status`, `board`, `brief` and the dashboard's API.
 */
after(killAllServes)

interface Team {
  readonly world: SyncWorld
  readonly a: Machine
  readonly b: Machine
  readonly ui: UiProcess
  readonly upB: UpProcess
  readonly logA: string
  readonly logB: string
  readonly ids: { readonly a: string; readonly b: string }
}

/** Bob's Claude Code session that ended two days ago, no hook ever ran: dormant, resumed on bob's machine. */
const bobClaude = 'b0bc1a00-0000-4000-8000-00000000b0b1'
/** Bob's Codex session of an hour ago, no hook ever ran. */
const bobCodex = 'b0bc0de0-0000-4000-8000-00000000b0b2'
const aliceClaude = 'a11ce000-0000-4000-8000-00000000a111'

let team: Team

interface TargetsJson {
  agents: { handle: string; vendor: string; sessionId: string; machine: string; machineName: string }[]
  people: { handle: string; name: string; machineNames: string[] }[]
  worktrees: { path: string; machine: string; machineName: string }[]
}
interface SessionsJson {
  sessions: {
    id: string
    handle: string
    machine: string
    machineName: string
    delivery: string
    why: string
  }[]
}
interface LogJson {
  events: { type: string; lane: string | null; machine: string; machineName: string; human: string | null }[]
}

async function ok(machine: Machine, args: readonly string[], input?: string): Promise<CliResult> {
  const result = await machine.cli(args, input)
  assert.equal(result.code, 0, `${machine.name}: sangam ${args.join(' ')}: ${result.stdout}${result.stderr}`)
  return result
}

async function sync(machine: Machine, worktree: string, outcome: RegExp): Promise<void> {
  const result = await runCli(['sync', '--json'], { cwd: worktree, env: machine.env })
  const answer = JSON.parse(result.stdout) as { outcome?: string }
  assert.match(answer.outcome ?? '', outcome, `${machine.name}: ${result.stdout}${result.stderr}`)
}

async function makeTeam(): Promise<Team> {
  const world = await syncWorld()
  const { a, b } = world
  const origin = join(world.root.path, 'origin.git')
  for (const machine of [a, b]) git(machine.repo, 'config', `url.${origin}.insteadOf`, sharedRemote)
  const logA = withFakeVendors(a, ['claude', 'codex'])
  const logB = withFakeVendors(b, ['claude', 'codex'])
  await a.cliJson(['init', '--no-mcp', '--server', world.server.url])
  const line = (await runCli(['connection'], { cwd: a.repo, env: a.env })).stdout
  await ok(b, ['join'], line)

  // Both hosts are this one: by default both would be called after it; each names itself.
  const named = {
    a: await a.cliJson<{ machine: { id: string; name: string } }>(['identify', '--machine', 'alice-box']),
    b: await b.cliJson<{ machine: { id: string; name: string } }>(['identify', '--machine', 'bob-box']),
  }

  // Bob's sessions, captured from their transcripts; no hook of theirs ever runs.
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000).toISOString()
  const claudeDir = join(b.home, '.claude', 'projects', '-bob-widget')
  appendFileSync(
    join(claudeDir, `${bobClaude}.jsonl`),
    claudeHuman({ cwd: b.repo, session: bobClaude, text: 'BOBOLD fix the parser', at: twoDaysAgo }),
  )
  const codexDir = join(b.home, '.codex', 'sessions', '2026', '11', '29')
  mkdirSync(codexDir, { recursive: true })
  writeFileSync(
    join(codexDir, `rollout-2026-11-29T10-00-00-${bobCodex}.jsonl`),
    codexMeta({ cwd: b.repo, id: bobCodex }) + codexHuman('BOBCODEX write the docs'),
  )
  a.say(aliceClaude, 'ALICE1 review the lanes page')
  // Bob in the room's chat for a moment: a person, not a second actor.
  await ok(b, ['chat'], '/quit\n')

  // One publish from each machine, then bob's lane takes the team's lock with a semantic task.
  const alpha = (await a.cliJson<{ lane: { worktree: string } }>(['lane', 'alpha', '--no-agent'])).lane
    .worktree
  const beta = (await b.cliJson<{ lane: { worktree: string } }>(['lane', 'beta', '--no-agent'])).lane.worktree
  writeFileSync(join(beta, 'beta.txt'), 'from bob\n')
  await sync(b, beta, /^published-/)
  writeFileSync(join(alpha, 'shared.txt'), 'base\n')
  await sync(a, alpha, /^published-/)
  await sync(b, beta, /^caught-up$/)
  writeFileSync(join(alpha, 'shared.txt'), 'alice\n')
  await sync(a, alpha, /^published-/)
  writeFileSync(join(beta, 'shared.txt'), 'bob\n')
  await sync(b, beta, /^task-started$/)

  const upB = b.up()
  const ui = await startUi(['up', '--ui', '--no-open', '--json'], {
    cwd: a.repo,
    env: a.env,
    timeoutMs: 120_000,
  })
  await upB.waitFor('sync-connected')
  team = { world, a, b, ui, upB, logA, logB, ids: { a: named.a.machine.id, b: named.b.machine.id } }
  // Everything bob's machine did has reached alice's replica: his sessions, his name, his publish.
  await eventually(
    async () => {
      const targets = await a.cliJson<TargetsJson>(['targets'])
      const log = await a.cliJson<LogJson>(['log'])
      return (
        [bobClaude, bobCodex].every((id) =>
          targets.agents.some((agent) => agent.sessionId === id && agent.machineName === 'bob-box'),
        ) &&
        targets.agents.some((agent) => agent.sessionId === aliceClaude) &&
        targets.people.some((person) => person.name === 'bob@x.dev') &&
        log.events.some((event) => event.machine === team.ids.b && event.type.startsWith('sync.published'))
      )
    },
    180_000,
    "bob's sessions, name and publish in alice's replica",
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nA:\n${ui.stderr()}\nB:\n${upB.stderr()}`)
  })
  return team
}

describe('one team, seen the same from every machine', () => {
  before(async () => {
    team = await makeTeam()
  })
  after(async () => {
    await team?.ui.stop()
    await team?.upB.stop()
    await team?.world[Symbol.asyncDispose]()
  })

  test("12. a publish on bob's machine is in alice's log and dashboard, each machine's publishes once, with the machine", async () => {
    const { a, ui, ids } = team
    const log = await a.cliJson<LogJson>(['log'])
    const publishes = log.events.filter((event) => event.type.startsWith('sync.published'))
    assert.deepEqual(
      publishes.map((event) => [event.lane, event.machine, event.machineName, event.human]),
      [
        ['beta', ids.b, 'bob-box', 'bob@x.dev'],
        ['alpha', ids.a, 'alice-box', 'alice@x.dev'],
        ['alpha', ids.a, 'alice-box', 'alice@x.dev'],
      ],
    )
    // Bob's task took the lock on his machine: his other events arrived too, none of them twice.
    assert.equal(
      log.events.filter((event) => event.type === 'task.started' && event.machine === ids.b).length,
      1,
    )
    const text = (await a.cli(['log'])).stdout
    assert.match(text, /beta on bob-box: published/)

    const lanes = (await ui.request('/api/lanes')).json<{
      publishes: { lane: string; machine: string; machineName: string }[]
    }>()
    assert.deepEqual(
      lanes.publishes.map((publish) => [publish.lane, publish.machineName]),
      [
        ['alpha', 'alice-box'],
        ['alpha', 'alice-box'],
        ['beta', 'bob-box'],
      ],
    )
  })

  test("13. bob's sessions are in one directory on alice's machine: targets, sessions, send, the dashboard, each with its machine", async () => {
    const { a, b, ui, logA, logB } = team
    const targets = await a.cliJson<TargetsJson>(['targets'])
    const sessions = await a.cliJson<SessionsJson>(['sessions'])
    const agentIds = targets.agents.map((agent) => agent.sessionId).sort()
    assert.deepEqual(agentIds, [aliceClaude, bobClaude, bobCodex].sort())
    assert.deepEqual(sessions.sessions.map((session) => session.id).sort(), agentIds)
    for (const session of sessions.sessions) {
      const agent = targets.agents.find((each) => each.sessionId === session.id)
      assert.equal(session.handle, agent?.handle, 'one handle in both')
      assert.equal(session.machineName, session.id === aliceClaude ? 'alice-box' : 'bob-box')
    }
    // Bob's sessions are reached through his machine's daemon, never through alice's own CLIs.
    const codex = sessions.sessions.find((session) => session.id === bobCodex)
    assert.equal(codex?.delivery, 'remote')
    assert.match(codex?.why ?? '', /bob-box/)

    const now = (await ui.request('/api/now')).json<{
      actors: { kind: string; sessionId: string | null; machineNames: string[] }[]
    }>()
    assert.deepEqual(
      now.actors
        .filter((actor) => actor.kind === 'agent')
        .map((actor) => [actor.sessionId, actor.machineNames])
        .sort(),
      [
        [aliceClaude, ['alice-box']],
        [bobClaude, ['bob-box']],
        [bobCodex, ['bob-box']],
      ].sort(),
    )

    // A session whose hooks never ran can claim a handle on its machine.
    const claimed = await b.cliJson<{ agent: { handle: string } }>([
      'identify',
      bobCodex.slice(0, 8),
      'docs-writer',
    ])
    assert.equal(claimed.agent.handle, 'docs-writer')

    // What `sessions` calls reachable, `send` reaches: bob's daemon resumes his dormant session.
    const sent = await a.cliJson<{ outcome: string; reason: string }>([
      'send',
      bobClaude.slice(0, 8),
      'TEAMVIEW7 alice: the parser test is red',
    ])
    assert.equal(sent.outcome, 'forwarded', JSON.stringify(sent))
    assert.match(sent.reason, /bob-box/)
    const resumed = () => fakeTurns(logB).filter((each) => each.argv.includes(bobClaude))
    await eventually(() => resumed().length > 0, 120_000, "bob's daemon resumed his session")
    const [turn, ...more] = resumed()
    assert.deepEqual(more, [], 'one turn')
    assert.ok(turn?.argv.includes(bobClaude), turn?.argv.join(' '))
    assert.match(turn?.stdin ?? '', /TEAMVIEW7/)
    assert.deepEqual(fakeTurns(logA), [], "alice's machine never runs a CLI for bob's session")
  })

  test('14. a person is one actor on every machine and channel: bob once, with both his machines seen', async () => {
    const { a, ui } = team
    const targets = await a.cliJson<TargetsJson>(['targets'])
    assert.ok(
      targets.agents.every((agent) => agent.vendor === 'claude' || agent.vendor === 'codex'),
      JSON.stringify(targets.agents),
    )
    assert.deepEqual(
      targets.people.map((person) => [person.handle, person.name, person.machineNames]),
      [
        ['alice', 'alice@x.dev', ['alice-box']],
        ['bob', 'bob@x.dev', ['bob-box']],
      ],
    )
    const now = (await ui.request('/api/now')).json<{
      me: { handle: string; name: string }
      actors: { kind: string; handle: string; name: string }[]
    }>()
    assert.deepEqual(now.me, { handle: 'alice', name: 'alice@x.dev' })
    assert.deepEqual(
      now.actors.filter((actor) => actor.kind === 'human').map((actor) => [actor.handle, actor.name]),
      [
        ['alice', 'alice@x.dev'],
        ['bob', 'bob@x.dev'],
      ],
    )
    // `@bob` is the person, from any machine.
    const posted = await a.cliJson<{ message: { recipients: string[] } }>(['post', '--to', '@bob', 'lunch?'])
    assert.deepEqual(posted.message.recipients, ['@bob'])
  })

  test('15. machines by name everywhere: targets, sessions, status, board, brief', async () => {
    const { a, ids } = team
    const targets = await a.cliJson<TargetsJson>(['targets'])
    const bobs = targets.worktrees.filter((worktree) => worktree.machine === ids.b)
    assert.ok(
      bobs.length > 0 && bobs.every((worktree) => worktree.machineName === 'bob-box'),
      JSON.stringify(bobs),
    )
    const text = (await a.cli(['targets'])).stdout
    assert.match(text, /alice-box \(here\)/)
    assert.match(text, /bob-box/)
    assert.doesNotMatch(text, /m_[0-9a-f]{16}/, 'no machine id where a name is known')
    assert.doesNotMatch((await a.cli(['sessions'])).stdout, /m_[0-9a-f]{16}/)
    // Bob's lane holds the team's lock: alice's status and board name his machine.
    const status = await a.cliJson<{ lock: { lane: string } | null }>(['status'])
    assert.equal(status.lock?.lane, 'beta@bob-box')
    assert.match((await a.cli(['board'])).stdout, /lock: .*beta@bob-box/)
    assert.match((await a.cli(['brief'])).stdout, /bob@x\.dev · claude session \S+ on bob-box/)
  })
})
