import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test } from 'node:test'
import { commands } from '../src/cli/registry.ts'
import { mapLimit } from '../src/shared/map-limit.ts'
import { claudeAssistant, claudeHuman } from './helpers/capture-transcripts.ts'
import { collectOutput } from './helpers/child-output.ts'
import { laneProject } from './helpers/lane-fixture.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { type CliResult, isolatedEnv, projectRoot, spawnCli } from './helpers/run-cli.ts'

/**
 * Text from others never drives the terminal (issue 19 item 4, D290). Hostile text goes in through
 * every way text comes in (the CLI, an agent's MCP tools, a teammate whose name is itself hostile),
 * in every kind of field (a message, a lease reason, a thread's title and reason, a handoff, a
 * note, an option value, an echoed argument); then every command of the registry runs, as text
 * and as --json, and none may print a control character but a newline, nor start a line with text
 * that came after a newline in a field that is one line.
 */

/** Every class of sequence a terminal acts on: cursor up, erase line, CR, clear screen, OSC title, C1 CSI, bidi. */
const attack = '\x1b[1A\x1b[2K\r\x1b[2J\x1b]0;pwned\x07 \u009b31m \u202eevil\u2066 \u200f\u061c \x7f\x08\x0b'
/** For multi-line fields: the controls only. */
const hostile = (field: string): string => `${field} innocent${attack} end`
/** For one-line fields: the controls, and a newline that would start a line of the attacker's own. */
const hostileLine = (field: string): string => `${hostile(field)}\nFORGED ${field}`

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const rawControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** What is wrong with `output` for a terminal: a raw control character, or a line a field started. */
function problemsOf(what: string, output: string): string[] {
  const problems: string[] = []
  const found = rawControl.exec(output)
  if (found !== null) {
    const near = output.slice(Math.max(0, found.index - 60), found.index + 20)
    const code = found[0].codePointAt(0)?.toString(16).padStart(4, '0')
    problems.push(`${what} printed a raw control character U+${code} near ${JSON.stringify(near)}`)
  }
  const forged = output.split('\n').find((line) => line.startsWith('FORGED'))
  if (forged !== undefined) problems.push(`${what} let a field start a line of its own: ${forged}`)
  return problems
}

function assertSafe(what: string, output: string): void {
  assert.deepEqual(problemsOf(what, output), [])
}

type Step =
  | {
      readonly args: readonly string[]
      readonly cwd?: 'lane'
      readonly input?: string
      readonly user?: string
    }
  | { readonly until: RegExp; readonly args: readonly string[] }
/** How each command is run here; a command not in this table fails the test until it is added. */
type Plan = Record<string, readonly Step[] | { readonly exempt: string }>

const mallory = hostileLine('mallory')

const plan: Plan = {
  init: [{ args: ['init', '--no-mcp'] }],
  join: [{ args: ['join', hostileLine('connection')] }],
  connection: [{ args: ['connection'] }],
  'install-hooks': [{ args: ['install-hooks'] }],
  up: [{ args: ['up'], until: /caught up|"type":"ready"/ }],
  index: [{ args: ['index'] }],
  doctor: [{ args: ['doctor'] }],
  brief: [{ args: ['brief'] }],
  search: [{ args: ['search', 'innocent'] }, { args: ['search', hostileLine('query')] }],
  thread: [{ args: ['thread', hostileLine('event')] }],
  note: [{ args: ['note', hostile('note')], user: mallory }],
  mcp: { exempt: 'JSON-RPC for an agent, not a terminal: the MCP test below reads its output' },
  claim: [{ args: ['claim', 'lib/**', '--reason', hostileLine('reason')], user: mallory }],
  release: [{ args: ['release', 'lib/**'], user: mallory }, { args: ['release', hostileLine('pattern')] }],
  'who-has': [{ args: ['who-has', 'src/app.js'] }, { args: ['who-has', 'docs/x.md'] }],
  leases: [{ args: ['leases'] }],
  post: [{ args: ['post', '--topic', hostileLine('topic'), hostile('post')], user: mallory }],
  read: [{ args: ['read'] }],
  'thread-open': [
    {
      args: [
        'thread-open',
        '--title',
        hostileLine('title'),
        '--reason',
        hostileLine('why'),
        '--path',
        'a.js',
      ],
      user: mallory,
    },
  ],
  'thread-close': [{ args: ['thread-close', hostileLine('thread-id')] }],
  threads: [{ args: ['threads', '--all'] }],
  board: [{ args: ['board'] }],
  identify: [{ args: ['identify', hostileLine('session'), hostileLine('handle')] }],
  targets: [{ args: ['targets'] }],
  ready: [{ args: ['ready'] }],
  rules: [{ args: ['rules'] }, { args: ['rules', 'set', hostileLine('rule'), 'warn'] }],
  alerts: [{ args: ['alerts'] }],
  options: [{ args: ['options'] }],
  'option-set': [{ args: ['option-set', hostileLine('option'), '1'] }],
  chat: [{ args: ['chat'], input: '/threads\n/board\n/targets\n/help\n' }],
  serve: { exempt: 'prints the URL it listens on, its own text; the server is tested in server/test' },
  sessions: [{ args: ['sessions'] }],
  send: [{ args: ['send', hostileLine('session'), 'hello'] }],
  start: [{ args: ['start', '--vendor', 'claude', hostile('task')] }],
  stop: [{ args: ['stop', hostileLine('session')] }],
  deliveries: [{ args: ['deliveries'] }],
  codex: { exempt: "runs Codex's own terminal interface on the terminal; sangam prints nothing of its own" },
  lane: [{ args: ['lane', 'bob', '--no-agent'] }, { args: ['lane', hostileLine('lane')] }],
  sync: [{ args: ['sync'], cwd: 'lane' }],
  status: [{ args: ['status'] }],
  log: [{ args: ['log'] }],
  delete: [{ args: ['delete', hostileLine('lane')] }],
  ui: { exempt: 'prints its own URL; the dashboard escapes as HTML (test/ui-browser.test.ts)' },
}

test('the plan names every command of the registry', () => {
  assert.deepEqual(Object.keys(plan).sort(), commands.map((command) => command.name).sort())
})

test('no command prints a control character from text others wrote, as text or as --json', async () => {
  await using p = await laneProject()
  const init = await p.cli(['init', '--no-mcp'])
  assert.equal(init.code, 0, init.stderr)
  const laneDir = await p.lane('bob')
  p.write(laneDir, 'src/bob.js', 'export const bob = 1\n')
  p.commit(laneDir, 'bob')
  // An agent's transcript: what it was told and said, and a branch name, all text from others.
  const session = '5e55e55e-0000-4000-8000-000000000001'
  const transcript = [
    claudeHuman({ cwd: p.repo.path, session, text: hostile('prompt') }),
    claudeAssistant({ cwd: p.repo.path, session, messageId: 'msg_1', text: hostile('answer') }),
  ]
    .join('')
    .replaceAll('"gitBranch":"main"', `"gitBranch":${JSON.stringify(hostileLine('branch'))}`)
  const transcriptFile = join(p.home.path, '.claude', 'projects', '-project', `${session}.jsonl`)
  mkdirSync(dirname(transcriptFile), { recursive: true })
  writeFileSync(transcriptFile, transcript)
  assert.equal((await p.cli(['index'])).code, 0)
  // An agent's session writes through MCP: a post, a thread, a handoff, a claim.
  const env = isolatedEnv(p.home.path, {
    SANGAM_USER: 'dev@example.com',
    CLAUDE_CODE_SESSION_ID: '0f1e2d3c-4b5a-4968-8776-655443322110',
  })
  {
    await using mcp = await connectMcp(p.repo.path, env)
    for (const [tool, args] of [
      ['room_post', { text: hostile('mcp-post'), topic: 'mcp' }],
      [
        'room_thread_open',
        { title: hostileLine('mcp-title'), reason: hostileLine('mcp-why'), paths: ['a.js'] },
      ],
      ['ctx_claim', { patterns: ['docs/**'], reason: hostileLine('mcp-reason') }],
      [
        'room_handoff',
        {
          text: hostile('handoff'),
          proof: hostileLine('proof'),
          blocker: hostileLine('blocker'),
          nextOwner: '@human',
        },
      ],
      ['ctx_note', { text: hostile('mcp-note') }],
    ] as const) {
      const result = await mcp.call(tool, args)
      assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result.content)}`)
    }
  }
  const results: { what: string; result: CliResult; json: boolean }[] = []
  const problems: string[] = []
  const run = async (step: Step, json: boolean): Promise<CliResult> => {
    const args = json ? [...step.args, '--json'] : [...step.args]
    if ('until' in step) return await runUntil(args, step.until, p.repo.path, env)
    return await p.cli(args, {
      cwd: 'cwd' in step && step.cwd === 'lane' ? laneDir : p.repo.path,
      ...('user' in step && step.user !== undefined ? { user: step.user } : {}),
      ...('input' in step && step.input !== undefined ? { input: step.input } : {}),
    })
  }
  // The seeding steps first (so that the reading commands see what they wrote), then the reading
  // ones side by side, then those that change what others read.
  const seeding = ['note', 'claim', 'post', 'thread-open']
  const changing = ['release', 'lane', 'sync', 'delete', 'install-hooks', 'init', 'index', 'up']
  const stepsOf = (names: readonly string[]): { name: string; step: Step; json: boolean }[] =>
    names.flatMap((name) => {
      const steps = plan[name]
      if (steps === undefined || !Array.isArray(steps)) return []
      return (steps as readonly Step[]).flatMap((step) => [false, true].map((json) => ({ name, step, json })))
    })
  const reading = Object.keys(plan).filter((name) => !seeding.includes(name) && !changing.includes(name))
  const check = async ({ name, step, json }: { name: string; step: Step; json: boolean }): Promise<void> => {
    const result = await run(step, json)
    const what = `sangam ${name}${json ? ' --json' : ''} (${step.args.length} argument(s))`
    results.push({ what, result, json })
    problems.push(...problemsOf(`${what} on stdout`, result.stdout))
    problems.push(...problemsOf(`${what} on stderr`, result.stderr))
    if (json && result.stdout.trim() !== '' && name !== 'up')
      assert.doesNotThrow(() => JSON.parse(result.stdout), `${what} printed JSON`)
  }
  for (const each of stepsOf(seeding)) await check(each)
  await mapLimit(stepsOf(reading), 3, check)
  // One moment of the transcript in context, by the id search found for it.
  const found = await p.json<{ hits: { id: string; kind: string }[] }>(['search', 'prompt', 'innocent'])
  const moment = found.hits.find((hit) => hit.kind === 'human')
  assert.ok(moment !== undefined, 'search found the hostile prompt')
  await check({ name: 'thread', step: { args: ['thread', moment.id] }, json: false })
  for (const each of stepsOf(changing)) await check(each)
  assert.deepEqual(problems, [])
  // Not vacuous: the hostile text reached the reading commands, shown as escapes.
  const textOf = (name: string): string =>
    results
      .filter((each) => each.what.startsWith(`sangam ${name} (`))
      .map((each) => each.result.stdout + each.result.stderr)
      .join('\n')
  for (const name of [
    'read',
    'leases',
    'threads',
    'board',
    'search',
    'brief',
    'alerts',
    'chat',
    'thread',
    'sessions',
  ]) {
    // The board cuts its cards to the column: the first sequence is all it may show.
    assert.match(textOf(name), /innocent\\e\[1A/, `sangam ${name} showed the hostile text`)
  }
  assert.match(
    textOf('read'),
    /mallory innocent\\e\[1A\\e\[2K\\r\\e\[2J\\e\]0;pwned\\u0007 \\u009b31m \\u202eevil/,
  )
  assert.match(textOf('leases'), /reason innocent.*\\nFORGED reason/)
  // --json keeps the exact text: JSON escapes are the text's own characters.
  const read = results.find((each) => each.what === 'sangam read --json (1 argument(s))')
  const messages = (
    JSON.parse(read?.result.stdout ?? '{}') as { messages: { text: string; sender: string }[] }
  ).messages
  assert.ok(messages.some((message) => message.text === hostile('post') && message.sender === mallory))
  assert.ok(messages.some((message) => message.text === hostile('mcp-post')))
})

test('the MCP server answers with the exact text, and its text content shows the controls escaped', async () => {
  await using p = await laneProject()
  await p.cli(['init', '--no-mcp'])
  await p.cli(['post', hostile('post')], { user: mallory })
  const env = isolatedEnv(p.home.path, { SANGAM_USER: 'dev@example.com' })
  await using mcp = await connectMcp(p.repo.path, env)
  const result = await mcp.call('room_read', {})
  const structured = result.structuredContent as { messages: { text: string; sender: string }[] }
  assert.equal(structured.messages[0]?.text, hostile('post'))
  assert.equal(structured.messages[0]?.sender, mallory)
  const [content] = result.content as { type: string; text: string }[]
  assertSafe('room_read text content', content?.text ?? '')
  assert.match(content?.text ?? '', /innocent\\e\[1A/)
})

test('only the composition roots touch process.stdout and process.stderr', () => {
  const allowed = new Set([
    'src/cli/main.ts',
    'src/mcp/mcp-main.ts',
    // A script text the guard process runs, not code of this process.
    'src/agents/codex/services/codex-server-guard.ts',
    // The plugin's text, which opencode runs in its own process.
    'src/agents/opencode/install/opencode-plugin.ts',
  ])
  const src = join(projectRoot, 'src')
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? files(join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [join(dir, entry.name)]
          : [],
    )
  const offenders = files(src)
    .filter((file) => !file.endsWith('.test.ts'))
    .filter((file) => /\bprocess\.std(out|err)\b/.test(codeOf(file)))
    .map((file) => relative(projectRoot, file))
    .filter((file) => !allowed.has(file))
  assert.deepEqual(offenders, [])
})

/** A source file without its comments, so that a comment naming process.stdout is not a use of it. */
function codeOf(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1')
}

/** Runs a long-running command until its stdout matches `until`, then stops it (SIGTERM). */
async function runUntil(
  args: readonly string[],
  until: RegExp,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<CliResult> {
  const child = spawnCli(args, { cwd, env })
  const output = collectOutput(child)
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 0)))
  await new Promise<void>((resolve) => {
    child.stdout?.on('data', () => {
      if (until.test(output.stdout)) resolve()
    })
    void closed.then(() => resolve())
  })
  child.kill('SIGTERM')
  return { code: await closed, stdout: output.stdout, stderr: output.stderr }
}
