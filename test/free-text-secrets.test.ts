import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { killAllServes } from '../server/test/helpers/serve-process.ts'
import { laneProject } from './helpers/lane-fixture.ts'
import { leaksUnder } from './helpers/leak-scan.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { readStore } from './helpers/read-store.ts'
import { type CliResult, runCli } from './helpers/run-cli.ts'
import { samples } from './helpers/secret-samples.ts'
import { attachBoth, type Machine, syncWorld } from './helpers/sync-world.ts'
import { git } from './helpers/tmp-git-repo.ts'
import { startUi } from './helpers/ui-process.ts'
import { eventually } from './helpers/up-process.ts'
import { claudeEdit, runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/**
 * Issue 19, item 3: secrets of several kinds typed into every free-text field sangam stores,
 * shares or turns into a git name, through the CLI, the MCP server and the dashboard, with a team
 * server attached. Each is refused, naming the field and the kind of secret; afterwards no byte of
 * either machine's data dir (database, WAL, everything else), of either repository (its .git:
 * refs, config, reflogs, index) or of the server's storage holds any of them. Context (a branch,
 * SANGAM_USER) is not refused: it arrives redacted, here and on the other machine.
 */
after(killAllServes)

const at = (list: readonly string[], index: number): string => list[index] ?? ''
const typed = {
  github: at(samples.github, 0),
  slack: samples.slackBot,
  aws: samples.awsId,
  anthropic: samples.anthropic,
  stripe: at(samples.stripe, 0),
  openai: samples.openaiProject,
  google: samples.googleApi,
  jwt: samples.jwt,
  /** Lowercase hex: it passes a handle's own shape, so only the rule keeps it out. */
  databricks: ['dap', 'i', '0f3c9a7d5e1b2c4d6e8f0a1b3c5d7e9f'].join(''),
}
/** Secrets that reach sangam as context, not typed: they are redacted, not refused. */
const context = { branch: at(samples.github, 1), user: at(samples.github, 2) }
/**
 * A branch a hook sees: hooks do not load the scrubber, so the session's presence keeps it on this
 * machine (a copy of git's own name); it is redacted before the record leaves.
 */
const hookBranch = at(samples.github, 3)

interface Refusal {
  readonly error: { readonly code: string; readonly message: string }
}

function assertRefused(result: CliResult, field: string, secret: string, what: string): void {
  assert.equal(result.code, 2, `${what}: exit ${result.code}\n${result.stdout}\n${result.stderr}`)
  const { error } = JSON.parse(result.stdout) as Refusal
  assert.equal(error.code, 'INVALID_INPUT', what)
  assert.match(error.message, new RegExp(`^${field} holds a secret \\([a-z-]+\\); nothing was stored`), what)
  assert.ok(!`${result.stdout}${result.stderr}`.includes(secret), `${what}: the refusal repeats the secret`)
}

async function attached(): Promise<Awaited<ReturnType<typeof syncWorld>>> {
  const world = await syncWorld()
  await attachBoth(world, { lineOnStdin: true })
  return world
}

interface Message {
  readonly text: string
  readonly branch: string | null
  readonly sender: string
}

function presenceBranches(machine: Machine): (string | null)[] {
  return readStore(machine.database, (db) =>
    (db.prepare('SELECT branch FROM presence').all() as { branch: string | null }[]).map((row) => row.branch),
  )
}

async function messages(machine: Machine): Promise<Message[]> {
  return (await machine.cliJson<{ messages: Message[] }>(['read'])).messages
}

test('a secret typed into any field, by the CLI, MCP or the dashboard, is refused and reaches no byte on disk or on the server', async () => {
  await using world = await attached()
  const { a, b } = world
  // A lease of bob's, for a forced release to need a reason.
  assert.equal((await b.cli(['claim', 'src/bob.ts', '--reason', 'bob works here'])).code, 0)

  const cli: [string, readonly string[], string][] = [
    ['a lease pattern', ['claim', `src/${typed.github}.ts`, '--reason', 'rotation'], typed.github],
    ['a lease pattern', ['claim', `config/${typed.aws}/**`, '--reason', 'rotation'], typed.aws],
    ['the lease reason', ['claim', 'src/a.ts', '--reason', `rotating ${typed.slack}`], typed.slack],
    [
      'the reason for forcing the release',
      ['release', 'src/bob.ts', '--force', '--reason', `key ${typed.stripe} leaked`],
      typed.stripe,
    ],
    ['the message text', ['post', `deploy with ${typed.anthropic}`], typed.anthropic],
    ['the message topic', ['post', 'hello', '--topic', typed.github], typed.github],
    ['the thread title', ['thread-open', '--title', `rotate ${typed.openai}`], typed.openai],
    [
      'the thread reason',
      ['thread-open', '--title', 'keys', '--reason', `leaked ${typed.google}`],
      typed.google,
    ],
    ['a thread path', ['thread-open', '--title', 'keys', '--path', `src/${typed.aws}.ts`], typed.aws],
    ['the note', ['note', `the deploy token is ${typed.jwt}`], typed.jwt],
    [
      'the value of lanes.check-command',
      ['option-set', 'lanes.check-command', `curl -H "Authorization: Bearer ${typed.github}" x`],
      typed.github,
    ],
    ['the handle', ['identify', 'any-session', typed.databricks], typed.databricks],
    ['the first prompt', ['start', '--vendor', 'claude', `use ${typed.slack}`], typed.slack],
  ]
  for (const [field, args, secret] of cli)
    assertRefused(await a.cli([...args, '--json']), field, secret, args[0] ?? '')

  await using mcp = await connectMcp(a.repo, a.env)
  const tools: [string, string, Record<string, unknown>, string][] = [
    ['a lease pattern', 'ctx_claim', { patterns: [`src/${typed.stripe}.ts`], reason: 'x' }, typed.stripe],
    [
      'the lease reason',
      'ctx_claim',
      { patterns: ['src/b.ts'], reason: `using ${typed.github}` },
      typed.github,
    ],
    ['the note', 'ctx_note', { text: `token ${typed.anthropic}` }, typed.anthropic],
    ['the message text', 'room_post', { text: `key ${typed.aws}` }, typed.aws],
    ['the message topic', 'room_post', { text: 'hi', topic: typed.google }, typed.google],
    [
      "the handoff's proof",
      'room_handoff',
      { text: 'done', proof: `curl -u admin:${typed.slack}` },
      typed.slack,
    ],
    [
      "the handoff's blocker",
      'room_handoff',
      { text: 'done', blocker: `needs ${typed.openai}` },
      typed.openai,
    ],
    ['a handoff path', 'room_handoff', { text: 'done', paths: [`keys/${typed.github}`] }, typed.github],
    ["the handoff's commit", 'room_handoff', { text: 'done', sourceSha: typed.jwt }, typed.jwt],
    ['the thread title', 'room_thread_open', { title: `about ${typed.stripe}` }, typed.stripe],
    ['a thread path', 'room_thread_open', { title: 'keys', paths: [`${typed.aws}.pem`] }, typed.aws],
    ['the handle', 'room_identify', { handle: typed.databricks, session: 'any' }, typed.databricks],
    [
      'the first prompt',
      'room_session_start',
      { vendor: 'codex', text: `key ${typed.google}` },
      typed.google,
    ],
  ]
  for (const [field, name, args, secret] of tools) {
    const answer = (await mcp.call(name, args)) as { isError?: boolean; content: { text: string }[] }
    const text = answer.content.map((part) => part.text).join('\n')
    assert.equal(answer.isError, true, `${name}: ${text}`)
    assert.match(text, new RegExp(`${field} holds a secret \\([a-z-]+\\); nothing was stored`), name)
    assert.ok(!text.includes(secret), `${name}: the refusal repeats the secret`)
  }

  await using ui = await startUi(['ui', '--no-open', '--json'], { cwd: a.repo, env: a.env })
  const forms: [string, string, Record<string, unknown>][] = [
    ['a lease pattern', '/api/leases', { paths: [`src/${typed.github}.ts`], reason: 'x' }],
    ['the lease reason', '/api/leases', { paths: ['src/c.ts'], reason: `rotating ${typed.jwt}` }],
    ['the message text', '/api/messages', { text: `here: ${typed.openai}` }],
    ['the thread title', '/api/threads', { title: `rotate ${typed.slack}` }],
  ]
  for (const [field, path, json] of forms) {
    const answer = await ui.request(path, { method: 'POST', json })
    assert.equal(answer.status, 422, `${path}: ${answer.body}`)
    assert.match(answer.body, new RegExp(`${field} holds a secret`), path)
  }

  // An agent editing a file whose name holds a secret: the edit goes on, the server refuses the
  // auto-lease (hooks do not load the scrubber; the server does), and the hook says so.
  const edit = await runAgentHook('claude', claudeEdit(a.repo, join(a.repo, 'keys', `${typed.stripe}.txt`)), {
    cwd: a.repo,
    env: a.env,
  })
  assert.equal(edit.code, 0, edit.stderr)
  // On a loaded machine the hook's 1.5 s budget may run out first: it fails open, as it says.
  assert.match(
    edit.stderr,
    /edit allowed; its auto-lease was not recorded \(.*holds a secret \(stripe-key\)|time budget/,
  )
  assert.ok(!edit.stderr.includes(typed.stripe), 'the hook repeats the secret')

  // Context: a branch named by a token and a SANGAM_USER that is one. Not refused: redacted.
  git(a.repo, 'checkout', '-q', '-b', `fix/${context.branch}`)
  assert.equal((await a.cli(['post', 'context probe from a branch'])).code, 0)
  git(a.repo, 'checkout', '-q', '-b', `wip/${hookBranch}`)
  const session = 'c1a0de00-0000-4000-8000-0000000000cc'
  const started = await runAgentHook('claude', sessionEvent(a.repo, 'SessionStart', session), {
    cwd: a.repo,
    env: a.env,
  })
  assert.equal(started.code, 0, started.stderr)
  // Recorded here as git names it (a hook past its budget on a loaded machine records nothing).
  const hookPresence = presenceBranches(a).includes(`wip/${hookBranch}`)
  git(a.repo, 'checkout', '-q', 'main')
  const asUser = await runCli(['post', 'context probe as a user', '--json'], {
    cwd: a.repo,
    env: { ...a.env, SANGAM_USER: context.user },
  })
  assert.equal(asUser.code, 0, asUser.stderr)
  assert.equal((await a.cli(['post', 'every probe is in'])).code, 0)

  // Everything that was stored reaches the server and bob: then nothing is in flight.
  await using upA = a.up()
  await using upB = b.up()
  await Promise.all([upA.waitFor('sync-connected'), upB.waitFor('sync-connected')])
  await eventually(
    async () => (await messages(b)).some((message) => message.text === 'every probe is in'),
    60_000,
    "a's last post on b",
  )
  const onB = await messages(b)
  assert.equal(
    onB.find((message) => message.text === 'context probe from a branch')?.branch,
    'fix/[REDACTED:github-token]',
  )
  assert.equal(
    onB.find((message) => message.text === 'context probe as a user')?.sender,
    '[REDACTED:github-token]',
  )
  await eventually(
    () => !hookPresence || presenceBranches(b).includes('wip/[REDACTED:github-token]'),
    60_000,
    "the hook's presence on b, its branch redacted",
  )
  await Promise.all([upA.stop(), upB.stop()])
  await ui.stop()

  const dataDirs = [join(a.home, '.sangam'), join(b.home, '.sangam'), world.serverDir]
  assert.deepEqual(leaksUnder(dataDirs.slice(1), [hookBranch]), [], "the hook's branch left a redacted")
  // The scan reads what was stored: the last post is in every one of them.
  for (const dir of dataDirs) assert.notDeepEqual(leaksUnder([dir], ['every probe is in']), [], dir)
  const everySecret = [...Object.values(typed), ...Object.values(context)]
  assert.deepEqual(leaksUnder(dataDirs, everySecret), [], 'no secret in any data dir or the server storage')
  // The branch made by hand is git's own: only the typed secrets are looked for in the repositories.
  assert.deepEqual(
    leaksUnder([a.repo, b.repo], Object.values(typed)),
    [],
    'no typed secret in either repository',
  )
})

test('a lane named by a token, an agent command or a takeover reason holding one is refused before git sees it', async () => {
  await using p = await laneProject()
  // Each fits a lane name's own shape (letters, digits, _ and -, at most 40): only the rule stops it.
  for (const name of [typed.github, typed.aws, typed.stripe, typed.google]) {
    assert.match(name, /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/)
    assertRefused(await p.cli(['lane', name, '--no-agent', '--json']), 'the lane name', name, 'lane')
  }
  assertRefused(
    await p.cli(['lane', 'tidy', '--agent', `claude --api-key ${typed.anthropic}`, '--json']),
    "the lane's agent command",
    typed.anthropic,
    'lane --agent',
  )
  const worktree = await p.lane('tidy')
  assertRefused(
    await p.cli(['sync', '--takeover', '--reason', `lost ${typed.slack}`, '--json'], { cwd: worktree }),
    'the reason for the takeover',
    typed.slack,
    'sync --takeover',
  )
  assert.deepEqual(p.refs('refs/heads/lane/'), ['refs/heads/lane/tidy'])
  const secrets = [typed.github, typed.aws, typed.stripe, typed.google, typed.anthropic, typed.slack]
  assert.deepEqual(leaksUnder([p.repo.path, p.home.path], secrets), [])
})
