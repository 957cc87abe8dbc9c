import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { laneProject } from './helpers/lane-fixture.ts'

/** The CLI's words where issue 20 found them wrong: what each command says, as a person reads it. */

test('release says what it released, with no expiry for a lease that has ended', async () => {
  await using p = await laneProject()
  await p.cli(['init', '--no-mcp'])
  assert.equal((await p.cli(['claim', 'docs/**', '-r', 'docs pass'], { user: 'alice@x.dev' })).code, 0)
  assert.equal((await p.cli(['claim', 'lib/**', '-r', 'lib pass'], { user: 'alice@x.dev' })).code, 0)
  const released = await p.cli(['release', 'docs/**'], { user: 'alice@x.dev' })
  assert.equal(released.code, 0, released.stderr)
  assert.match(released.stdout, /^released docs\/\*\* — alice@x\.dev: "docs pass" \[token \d+\]$/m)
  const forced = await p.cli(['release', 'lib/**', '--force', '-r', 'alice is away'], { user: 'bob@x.dev' })
  assert.equal(forced.code, 0, forced.stderr)
  assert.match(forced.stdout, /^force-released lib\/\*\* — alice@x\.dev: "lib pass" \[token \d+\]$/m)
  for (const text of [released.stdout, forced.stdout]) assert.doesNotMatch(text, /until|\(in \d/)
})

test('log prints each integration event as words, not ISO times and JSON; --json keeps the events', async () => {
  await using p = await laneProject()
  const bob = await p.lane('bob')
  p.write(bob, 'src/bob.js', 'export const bob = 1\n')
  p.commit(bob, 'bob')
  assert.equal((await p.cli(['sync'], { cwd: bob })).code, 0)
  const log = await p.cli(['log'])
  assert.equal(log.code, 0, log.stderr)
  const lines = log.stdout.trim().split('\n')
  assert.doesNotMatch(log.stdout, /\d{4}-\d\d-\d\dT|[{}]|"main"/, log.stdout)
  assert.match(lines[0] ?? '', /^\d\d:\d\d UTC {2}bob on \S+: lane created at .*lanes\/bob \(no agent\)$/)
  const main = p.main().slice(0, 12)
  assert.match(
    log.stdout,
    new RegExp(`^\\d\\d:\\d\\d UTC {2}bob on \\S+: published directly: main is now ${main}$`, 'm'),
  )
  const json = await p.json<{ events: { type: string; lane: string; payload: Record<string, unknown> }[] }>([
    'log',
  ])
  assert.deepEqual(
    json.events.map((event) => [event.type, event.lane]),
    [
      ['lane.created', 'bob'],
      ['sync.published-direct', 'bob'],
    ],
  )
  assert.equal(json.events[1]?.payload.main, p.main())
})

test('an unknown option, rule or rung names the close ones', async () => {
  await using p = await laneProject()
  await p.cli(['init', '--no-mcp'])
  for (const [args, said] of [
    [['option-set', 'stale-days', '14'], /no project option "stale-days"; did you mean room\.stale-days\?/],
    [['option-set', 'room.stale-day', '14'], /did you mean room\.stale-days\?/],
    [['rules', 'set', 'file-overlaps', 'warn'], /no rule "file-overlaps"; did you mean file-overlap\?/],
    [['rules', 'set', 'lease-collision', 'refuze'], /got "refuze" \(did you mean refuse\?\)/],
  ] as const) {
    const refused = await p.cli(args)
    assert.equal(refused.code, 2, `${args.join(' ')}: ${refused.stderr}`)
    assert.match(refused.stderr, said)
  }
  const options = await p.json<{ options: { name: string; value: unknown }[] }>(['options'])
  assert.equal(
    options.options.find((option) => option.name === 'room.stale-days')?.value,
    30,
    'nothing was set',
  )
})

test('lane --agent refuses a name that is neither a supported agent nor a program, and creates nothing', async () => {
  await using p = await laneProject()
  await p.cli(['init', '--no-mcp'])
  for (const [agent, said] of [
    [
      'aider',
      /--agent "aider" is not an agent sangam supports, nor a program on PATH; the agents are claude, codex, gemini and opencode/,
    ],
    ['claud', /did you mean claude\?/],
    ['/no/such/codex-like', /nor a program at that path/],
  ] as const) {
    const refused = await p.cli(['lane', 'alice', '--agent', agent])
    assert.equal(refused.code, 2, refused.stderr)
    assert.match(refused.stderr, said)
  }
  assert.equal(existsSync(join(p.repo.path, '.sangam', 'lanes', 'alice')), false, 'no worktree')
  const status = await p.json<{ lanes: unknown[] }>(['status'])
  assert.deepEqual(status.lanes, [])
  // Another program is started as given, with a warning that sangam's hooks do not reach it.
  const other = await p.json<{ warnings: string[]; agent: { command: string } }>(
    ['lane', 'bob', '--agent', 'cat'],
    {
      code: 0,
    },
  )
  assert.equal(other.agent.command, 'cat')
  assert.match(other.warnings[0] ?? '', /"cat" is none of claude, codex, gemini or opencode: sangam's hooks/)
  // Gemini CLI is a supported agent: accepted by name, without a warning, even where it is not installed.
  const gemini = await p.json<{ warnings: string[]; agent: { command: string } }>(
    ['lane', 'carol', '--agent', 'gemini'],
    { code: 0 },
  )
  assert.equal(gemini.agent.command, 'gemini')
  assert.deepEqual(gemini.warnings, [])
})
