import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { test } from 'node:test'
import { isAlive } from '../src/shared/process-alive.ts'
import { openConnection } from '../src/store/connection.ts'
import type { DeliveriesJson } from './helpers/deliveries-json.ts'
import { fakeAppServer } from './helpers/fake-app-server.ts'
import { fakeTurns, fakeVendorEnv } from './helpers/fake-vendor.ts'
import { runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { eventually, startUp } from './helpers/up-process.ts'
import { runAgentHook } from './hooks-agent-run.ts'

/**
 * Delivery end to end: the compiled CLI, daemon and hooks on a real repository and SQLite file,
 * with real executables standing in for `claude` and `codex` on PATH (test/helpers/fake-vendor.ts;
 * the real CLIs are driven in test/agents/).
 */

const claudeId = 'c1aude00-0000-4000-8000-00000000c0de'
const codexId = '01a2264c-aff5-7b22-ace8-554acdb41e6a'

async function world(
  extra: Record<string, string> = {},
  vendors: readonly ('claude' | 'codex')[] = ['claude', 'codex'],
  /** Whether a delivery process looks once before the test posts anything. */
  firstLook = true,
) {
  const home = tmpDir()
  const repo = tmpGitRepo()
  const { env, log } = fakeVendorEnv(home.path, vendors, extra)
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const laneOne = join(repo.path, '..', `lane-one-${process.pid}-${Math.floor(Math.random() * 1e6)}`)
  git(repo.path, 'worktree', 'add', '-q', laneOne, '-b', `lane-${Math.floor(Math.random() * 1e9)}`)
  const laneTwo = join(repo.path, '..', `lane-two-${process.pid}-${Math.floor(Math.random() * 1e6)}`)
  git(repo.path, 'worktree', 'add', '-q', laneTwo, '-b', `lane-${Math.floor(Math.random() * 1e9)}`)
  const hook = async (
    host: 'claude' | 'codex',
    cwd: string,
    name: string,
    sessionId: string,
    more: Record<string, unknown> = {},
  ) => {
    const run = await runAgentHook(
      host,
      {
        session_id: sessionId,
        transcript_path: null,
        cwd,
        hook_event_name: name,
        prompt: 'go',
        source: 'startup',
        ...more,
      },
      { cwd, env },
    )
    assert.equal(run.code, 0, run.stderr)
    return run
  }
  const cli = (
    args: readonly string[],
    options: { cwd?: string; env?: Record<string, string | undefined> } = {},
  ) => runCli(args, { cwd: options.cwd ?? repo.path, env: { ...env, ...options.env } })
  // A look before anything is posted (every tag posted since the store was made is weighed, D273).
  if (firstLook) assert.equal((await cli(['deliveries', '--deliver'])).code, 0)
  return {
    repo,
    env,
    database,
    laneOne,
    laneTwo,
    log,
    hook,
    cli,
    ledger: () => runCliJson<DeliveriesJson>(['deliveries'], { cwd: repo.path, env }),
    deliver: () => runCliJson<DeliveriesJson>(['deliveries', '--deliver'], { cwd: repo.path, env }),
    handleOf: async (sessionId: string): Promise<string> => {
      const listed = await runCliJson<{ sessions: { id: string; handle: string | null }[] }>(['sessions'], {
        cwd: repo.path,
        env,
      })
      const found = listed.sessions.find((session) => session.id === sessionId)
      assert.ok(found?.handle, `no handle for ${sessionId}`)
      return found.handle
    },
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

type World = Awaited<ReturnType<typeof world>>

/** A Claude Code session in lane one that ran once and ended: dormant. */
async function dormantClaude(w: World): Promise<string> {
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId)
  await w.hook('claude', w.laneOne, 'SessionEnd', claudeId, { reason: 'other' })
  return w.handleOf(claudeId)
}

test('a tag to a dormant Claude Code session resumes it once, the prompt on stdin', async () => {
  await using w = await world()
  const handle = await dormantClaude(w)
  const posted = await w.cli(['post', '--to', `@${handle}`, 'please rebase onto main'])
  assert.equal(posted.code, 0, posted.stderr)
  const ledger = await w.deliver()
  const turns = fakeTurns(w.log)
  assert.equal(turns.length, 1)
  const [turn] = turns
  assert.deepEqual(turn?.argv, ['--print', '--resume', claudeId])
  assert.match(turn?.stdin ?? '', /tagged in the sangam room by asha@example\.com/)
  assert.match(turn?.stdin ?? '', /please rebase onto main/)
  assert.match(turn?.stdin ?? '', /re-observe the repository/)
  assert.equal(turn?.cwd, w.laneOne, 'run in the session’s own worktree')
  assert.equal(ledger.turns[0]?.channel, 'resume')
  // Posted by a process with no terminal and no agent session: nobody can tell who typed it, so
  // its turn counts against the loop budget (D270).
  assert.equal(ledger.turns[0]?.cause, 'agent')
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.sessionId, row.state, row.channel]),
    [[claudeId, 'delivered', 'resume']],
  )
  // Looking again, from any process, starts nothing more.
  await w.deliver()
  await w.deliver()
  assert.equal(fakeTurns(w.log).length, 1)
})

test("a resumed turn's hooks do not show the session again the tags its delivered prompt carries; a later message they do", async () => {
  await using w = await world()
  const handle = await dormantClaude(w)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'please rebase onto main'])).code, 0)
  await w.deliver()
  assert.match(fakeTurns(w.log)[0]?.stdin ?? '', /please rebase onto main/)
  // What Claude Code runs inside that resumed turn: SessionStart (resume), then the prompt's hook.
  const start = await w.hook('claude', w.laneOne, 'SessionStart', claudeId, { source: 'resume' })
  assert.doesNotMatch(start.stdout, /please rebase onto main/, 'the brief repeats the delivered tag')
  const prompt = await w.hook('claude', w.laneOne, 'UserPromptSubmit', claudeId)
  assert.doesNotMatch(prompt.stdout, /please rebase onto main/, 'the prompt hook repeats the delivered tag')
  // A message the turn did not carry still reaches the session's next prompt.
  await w.hook('claude', w.laneOne, 'SessionEnd', claudeId, { reason: 'other' })
  assert.equal((await w.cli(['post', `@${handle} the build is green again`])).code, 0)
  const next = await w.hook('claude', w.laneOne, 'UserPromptSubmit', claudeId)
  assert.match(next.stdout, /the build is green again/)
  assert.doesNotMatch(next.stdout, /please rebase onto main/)
})

test("Claude Code's --bg and Codex's queue (while Codex's own daemon listens) are used when the installed CLI lists them", async () => {
  await using w = await world({
    FAKE_CLAUDE_HELP: 'Options:\n  --bg, --background   Start the session in the background\n',
    FAKE_CODEX_HELP: 'Commands:\n  queue            Queue a message for an existing session\n',
  })
  // `codex queue --resume` runs a turn only on Codex's local daemon (codex-daemon.ts): one listens.
  const control = join(w.env.CODEX_HOME ?? '', 'app-server-control')
  mkdirSync(control, { recursive: true })
  const daemon = createServer()
  await new Promise<void>((done) => daemon.listen(join(control, 'app-server-control.sock'), done))
  const claude = await dormantClaude(w)
  await w.hook('codex', w.laneTwo, 'SessionStart', codexId)
  await w.hook('codex', w.laneTwo, 'SessionEnd', codexId)
  const codex = await w.handleOf(codexId)
  assert.equal((await w.cli(['post', '--to', `@${claude}`, '--to', `@${codex}`, 'status?'])).code, 0)
  const ledger = await w.deliver()
  const turns = fakeTurns(w.log)
  const claudeTurn = turns.find((turn) => turn.vendor === 'claude')
  const codexTurn = turns.find((turn) => turn.vendor === 'codex')
  assert.deepEqual(claudeTurn?.argv.slice(0, 3), ['--bg', '--resume', claudeId])
  assert.match(claudeTurn?.argv[3] ?? '', /status\?/)
  assert.deepEqual(codexTurn?.argv.slice(0, 4), ['queue', '--thread', codexId, '--message'])
  assert.equal(codexTurn?.argv.at(-1), '--resume')
  assert.deepEqual(ledger.turns.map((turn) => turn.channel).sort(), ['background', 'queue'])
  daemon.close()
})

test('a claude --bg that refuses at once is followed by a --print resume of the same tags, in the same look', async () => {
  await using w = await world({
    FAKE_CLAUDE_HELP: 'Options:\n  --bg, --background   Start the session in the background\n',
    FAKE_CLAUDE_BG_REFUSES:
      'Workspace not trusted. Run `claude` in . once and accept the trust prompt, then retry.',
  })
  const handle = await dormantClaude(w)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'please rebase'])).code, 0)
  await w.deliver()
  const turns = fakeTurns(w.log)
  assert.deepEqual(
    turns.map((turn) => turn.argv.slice(0, 3)),
    [
      ['--bg', '--resume', claudeId],
      ['--print', '--resume', claudeId],
    ],
  )
  assert.match(turns[1]?.stdin ?? '', /please rebase/)
  const ledger = await w.ledger()
  const [resume, refused] = ledger.turns
  assert.equal(refused?.channel, 'background')
  assert.equal(refused?.state, 'failed')
  assert.match(refused?.detail ?? '', /exited with 1: Workspace not trusted/)
  assert.equal(resume?.channel, 'resume')
  assert.match(resume?.detail ?? '', new RegExp(`^instead of turn ${refused?.id}: `))
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.state, row.channel]),
    [['delivered', 'resume']],
  )
})

test('a background session sangam continued, listed at rest by claude agents, is stopped and continued again', async () => {
  const help =
    'Commands:\n  agents [options]   Manage background agents\nOptions:\n  --bg, --background   Start the session in the background\n'
  const resting = JSON.stringify([
    { id: 'c1aude00', kind: 'background', sessionId: claudeId, status: 'idle' },
  ])
  await using w = await world({ FAKE_CLAUDE_HELP: help, FAKE_CLAUDE_AGENTS: resting })
  assert.equal((await w.cli(['option-set', 'room.delivery-cooldown', '1'])).code, 0)
  const handle = await dormantClaude(w)
  // Listed at rest, but its last turn was not sangam's background one: somebody's; it waits.
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId)
  await w.hook('claude', w.laneOne, 'Stop', claudeId)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'first'])).code, 0)
  let ledger = await w.deliver()
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.state, row.channel]),
    [['pending', 'next-prompt']],
  )
  assert.equal(fakeTurns(w.log).length, 0)
  // Once sangam has continued it through claude --bg, the same listing means its own session.
  await w.hook('claude', w.laneOne, 'SessionEnd', claudeId, { reason: 'other' })
  await w.deliver()
  assert.deepEqual(
    fakeTurns(w.log).map((turn) => turn.argv[0]),
    ['--bg'],
  )
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId, { source: 'resume' })
  await w.hook('claude', w.laneOne, 'Stop', claudeId)
  await new Promise((done) => setTimeout(done, 1100))
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'second'])).code, 0)
  ledger = await w.deliver()
  assert.deepEqual(
    fakeTurns(w.log).map((turn) => turn.argv.slice(0, 2)),
    [
      ['--bg', '--resume'],
      ['stop', 'c1aude00'],
      ['--bg', '--resume'],
    ],
  )
  assert.deepEqual(
    ledger.turns.map((turn) => [turn.channel, turn.state]),
    [
      ['background', 'ended'],
      ['background', 'ended'],
    ],
  )
})

test('a Claude Code session waiting at a question keeps its tags, is neither stopped nor continued, and its Stop hands them over', async () => {
  const help =
    'Commands:\n  agents [options]   Manage background agents\nOptions:\n  --bg, --background   Start the session in the background\n'
  await using dir = tmpDir('sangam-agents-listing-')
  const listing = join(dir.path, 'agents.json')
  // What claude agents --json (2.1.332) said of a background session whose API key was never approved.
  const entry = { id: 'c1aude00', kind: 'background', sessionId: claudeId, status: 'idle', state: 'blocked' }
  writeFileSync(listing, JSON.stringify([entry]))
  await using w = await world({ FAKE_CLAUDE_HELP: help, FAKE_CLAUDE_AGENTS_FILE: listing })
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId)
  await w.hook('claude', w.laneOne, 'Stop', claudeId)
  const handle = await w.handleOf(claudeId)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'the build is red'])).code, 0)
  const ledger = await w.deliver()
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.state, row.channel, row.reason]),
    [['pending', 'hand-over', 'at-question']],
  )
  assert.deepEqual(fakeTurns(w.log), [], 'no claude stop, no --bg, no --print beside it')
  const listed = await runCliJson<{ sessions: { id: string; delivery: string; why: string }[] }>(
    ['sessions'],
    {
      cwd: w.repo.path,
      env: w.env,
    },
  )
  const view = listed.sessions.find((session) => session.id === claudeId)
  assert.equal(view?.delivery, 'active-elsewhere')
  assert.match(view?.why ?? '', /waits at a question for a person .*claude attach c1aude00/)
  const sent = await w.cli(['send', claudeId, 'are you stuck?', '--json'])
  assert.equal(sent.code, 0, sent.stdout + sent.stderr)
  assert.deepEqual(fakeTurns(w.log), [], 'send waits too')

  // A person answered it: the turn goes on and ends; its Stop carries both messages, once.
  writeFileSync(listing, JSON.stringify([{ ...entry, state: 'working' }]))
  const stop = await w.hook('claude', w.laneOne, 'Stop', claudeId)
  const block = JSON.parse(stop.stdout)
  assert.equal(block.decision, 'block')
  assert.match(block.reason, /the build is red/)
  assert.match(block.reason, /are you stuck\?/)
  const after = await w.deliver()
  assert.deepEqual(
    after.deliveries.map((row) => [row.state, row.channel]),
    [
      ['delivered', 'hand-over'],
      ['delivered', 'hand-over'],
    ],
  )
  assert.deepEqual(fakeTurns(w.log), [])
})

test('reading the ledger, from any process, shows a turn whose process ended as ended, not running', async () => {
  await using w = await world({ FAKE_VENDOR_SLEEP_MS: '2000' })
  const handle = await dormantClaude(w)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'a short one'])).code, 0)
  const started = await w.deliver()
  const pid = started.turns[0]?.pid
  assert.ok(pid, JSON.stringify(started))
  assert.equal(started.turns[0]?.state, 'running', 'the look returns while the turn runs')
  await eventually(() => !isAlive(pid), 15_000, 'the vendor process ended')
  const read = await w.ledger()
  assert.deepEqual(
    read.turns.map((turn) => turn.state),
    ['ended'],
    'the turn is ended without a daemon or a --deliver',
  )
})

test('a dormant Codex session is resumed with codex exec resume <id> -', async () => {
  await using w = await world()
  await w.hook('codex', w.laneTwo, 'SessionStart', codexId)
  await w.hook('codex', w.laneTwo, 'SessionEnd', codexId)
  const codex = await w.handleOf(codexId)
  assert.equal((await w.cli(['send', `@${codex}`, 'run the tests'])).code, 0)
  const [turn] = fakeTurns(w.log)
  assert.deepEqual(turn?.argv, ['exec', 'resume', '--all', codexId, '-'])
  assert.match(turn?.stdin ?? '', /run the tests/)
})

test('a missing vendor CLI is a clear refusal: the tag fails saying so, send exits 13', async () => {
  await using w = await world({}, ['codex'])
  const handle = await dormantClaude(w)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'anyone there?'])).code, 0)
  const ledger = await w.deliver()
  assert.equal(ledger.deliveries[0]?.state, 'failed')
  assert.match(ledger.deliveries[0]?.reason ?? '', /claude CLI was not found/)
  const sent = await w.cli(['send', claudeId, 'hello', '--json'])
  assert.equal(sent.code, 13, sent.stderr)
  assert.equal(JSON.parse(sent.stdout).outcome, 'failed')
  const started = await w.cli(['start', '--vendor', 'claude', 'begin', '--json'])
  assert.equal(started.code, 13)
  assert.equal(JSON.parse(started.stdout).error.code, 'VENDOR_CLI_UNAVAILABLE')
})

test('a vendor CLI that fails: the turn and its tags are recorded failed, with the log', async () => {
  await using w = await world({ FAKE_VENDOR_EXIT: '3' })
  const handle = await dormantClaude(w)
  const sent = await w.cli(['send', `@${handle}`, 'try this', '--json'])
  assert.equal(sent.code, 13, sent.stdout)
  const result = JSON.parse(sent.stdout)
  assert.equal(result.outcome, 'failed')
  assert.match(result.reason, /exited with 3/)
  const ledger = await w.ledger()
  assert.equal(ledger.turns[0]?.state, 'failed')
  assert.equal(ledger.turns[0]?.exitCode, 3)
  assert.equal(ledger.deliveries[0]?.state, 'failed')
})

test('a session open in a terminal is never resumed beside it: next prompt for a tag, refused for send', async () => {
  await using w = await world()
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId)
  await w.hook('claude', w.laneOne, 'Stop', claudeId)
  const handle = await w.handleOf(claudeId)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'when you are back: rebase'])).code, 0)
  const ledger = await w.deliver()
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.state, row.channel, row.reason]),
    [['pending', 'next-prompt', 'next-prompt']],
  )
  const sent = await w.cli(['send', claudeId, 'now please', '--json'])
  assert.equal(sent.code, 2)
  assert.equal(JSON.parse(sent.stdout).reason, 'active-elsewhere')
  assert.equal(fakeTurns(w.log).length, 0, 'no headless turn beside the open session')
  // Its next prompt carries the message; the ledger then says so.
  const prompt = await w.hook('claude', w.laneOne, 'UserPromptSubmit', claudeId)
  assert.match(prompt.stdout, /when you are back: rebase/)
  const after = await w.deliver()
  const row = after.deliveries.find((entry) => entry.channel === 'next-prompt')
  assert.equal(row?.state, 'delivered')
  assert.equal(fakeTurns(w.log).length, 0)
})

test('claude agents --json decides: an idle session Claude Code does not list is dormant and resumed', async () => {
  await using w = await world({
    FAKE_CLAUDE_HELP: 'Commands:\n  agents [options]   Manage background agents\n',
    FAKE_CLAUDE_AGENTS: '[]',
  })
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId)
  await w.hook('claude', w.laneOne, 'Stop', claudeId)
  const handle = await w.handleOf(claudeId)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'you there?'])).code, 0)
  await w.deliver()
  assert.deepEqual(fakeTurns(w.log)[0]?.argv, ['--print', '--resume', claudeId])
})

test('unknown and offline-elsewhere sessions: send names them, nothing starts', async () => {
  await using w = await world()
  const unknown = await w.cli(['send', 'no-such-session-1234', 'hi'])
  assert.equal(unknown.code, 4)
  assert.match(unknown.stderr, /sangam sessions lists them/)
  const other = await w.cli(['post', '--to', '@nobody-here', 'hi'])
  assert.notEqual(other.code, 0, 'a tag for a handle the room does not know is refused at post')
  assert.equal(fakeTurns(w.log).length, 0)
})

test('sangam’s own messages, echoes and policy off start nothing; the ledger says why', async () => {
  await using w = await world()
  const handle = await dormantClaude(w)
  // The session tags itself (its own commands carry its id): an echo.
  const echo = await w.cli(['post', '--to', `@${handle}`, 'note to self'], {
    cwd: w.laneOne,
    env: { CLAUDE_CODE_SESSION_ID: claudeId },
  })
  assert.equal(echo.code, 0, echo.stderr)
  await w.deliver()
  assert.equal(fakeTurns(w.log).length, 0)
  assert.equal((await w.ledger()).deliveries[0]?.reason, 'echo')
  assert.equal((await w.cli(['option-set', 'room.wake-on-tag', 'off'])).code, 0)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'are you awake'])).code, 0)
  await w.deliver()
  assert.equal(fakeTurns(w.log).length, 0)
  assert.equal((await w.ledger()).deliveries[0]?.reason, 'policy-off')
})

test('many processes weighing one tag at once start exactly one turn', async () => {
  await using w = await world({ FAKE_VENDOR_SLEEP_MS: '3000' })
  const handle = await dormantClaude(w)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'race me'])).code, 0)
  const runs = await Promise.all(Array.from({ length: 6 }, () => w.cli(['deliveries', '--deliver'])))
  for (const run of runs) assert.equal(run.code, 0, run.stderr)
  assert.equal(fakeTurns(w.log).length, 1)
  const ledger = await w.ledger()
  assert.equal(ledger.turns.length, 1)
  assert.equal(ledger.deliveries.length, 1)
})

test('a process killed between starting a turn and recording it: unknown, never a second turn', async () => {
  await using w = await world()
  const handle = await dormantClaude(w)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'the crash window'])).code, 0)
  // What a daemon killed right after writing `starting` (before the spawn was recorded) leaves.
  const dead = spawn(process.execPath, ['-e', ''])
  const deadPid = await new Promise<number>((done) => dead.on('exit', () => done(dead.pid as number)))
  {
    await w.cli(['deliveries'])
    const db = openConnection(w.database, { timeoutMs: 5000 })
    const message = db.prepare('SELECT id FROM room_message ORDER BY seq DESC LIMIT 1').get() as {
      id: string
    }
    const turn = db
      .prepare(
        `INSERT INTO delivery_turn (vendor, session_id, channel, cause, why, messages, state, owner_pid, started_at)
         VALUES ('claude', ?, 'resume', 'human', 'tag', ?, 'starting', ?, ?)`,
      )
      .run(claudeId, JSON.stringify([message.id]), deadPid, Date.now())
    db.prepare(
      `INSERT INTO delivery (message_id, vendor, session_id, state, channel, sender, sender_kind, mode, turn_id, created_at, updated_at)
       VALUES (?, 'claude', ?, 'starting', 'resume', 'asha@example.com', 'human', 'handle', ?, ?, ?)`,
    ).run(message.id, claudeId, turn.lastInsertRowid, Date.now(), Date.now())
    db.close()
  }
  const ledger = await w.deliver()
  await w.deliver()
  assert.equal(fakeTurns(w.log).length, 0, 'no second turn for the same tag')
  assert.equal(ledger.turns[0]?.state, 'unknown')
  assert.equal(ledger.deliveries[0]?.state, 'unknown')
})

test('a burst of 50 tags: one turn carries them all; the next tag waits for the cooldown', async () => {
  await using w = await world()
  const handle = await dormantClaude(w)
  // 50 posts land before the daemon looks (one process posting them, as fast as a burst gets).
  const script = Array.from(
    { length: 50 },
    (_, i) =>
      `node ${JSON.stringify(join(import.meta.dirname, '..', 'dist', 'cli', 'main.js'))} post --to @${handle} "burst ${i}"`,
  ).join(' && ')
  const posted = spawn('sh', ['-c', script], {
    cwd: w.repo.path,
    env: w.env as NodeJS.ProcessEnv,
    stdio: 'ignore',
  })
  assert.equal(await new Promise((done) => posted.on('exit', done)), 0)
  const ledger = await w.deliver()
  const turns = fakeTurns(w.log)
  assert.equal(turns.length, 1)
  for (let i = 0; i < 50; i++)
    assert.ok(
      turns[0]?.stdin.includes(`burst ${i}\n`) ||
        turns[0]?.stdin.endsWith(`burst ${i}`) ||
        turns[0]?.stdin.includes(`burst ${i}\n\n`),
      `burst ${i} carried`,
    )
  assert.equal(ledger.turns[0]?.messages.length, 50)
  assert.equal(ledger.deliveries.filter((row) => row.state === 'delivered').length, 50)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'one more'])).code, 0)
  const later = await w.deliver()
  assert.equal(fakeTurns(w.log).length, 1)
  assert.deepEqual([later.deliveries[0]?.state, later.deliveries[0]?.reason], ['pending', 'cooldown'])
})

test('the Stop hook hands tags over once (both hosts), and the daemon then starts nothing for them', async () => {
  await using w = await world()
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId)
  await w.hook('claude', w.laneOne, 'UserPromptSubmit', claudeId)
  await w.hook('codex', w.laneTwo, 'SessionStart', codexId)
  await w.hook('codex', w.laneTwo, 'UserPromptSubmit', codexId)
  const claude = await w.handleOf(claudeId)
  const codex = await w.handleOf(codexId)
  assert.equal(
    (await w.cli(['post', '--to', `@${claude}`, '--to', `@${codex}`, 'stop and look at main'])).code,
    0,
  )
  assert.equal(
    (await w.cli(['post', 'lunch at noon'])).code,
    0,
    'a message to the whole room alone never blocks a stop',
  )
  await w.deliver()
  assert.equal(fakeTurns(w.log).length, 0, 'both run a turn: nothing started beside them')
  const stop = await w.hook('claude', w.laneOne, 'Stop', claudeId)
  const block = JSON.parse(stop.stdout)
  assert.equal(block.decision, 'block')
  assert.match(block.reason, /stop and look at main/)
  assert.match(block.reason, /re-observe the repository/)
  const codexStop = await w.hook('codex', w.laneTwo, 'Stop', codexId)
  assert.equal(JSON.parse(codexStop.stdout).decision, 'block')
  // The continued turn ends: it is not blocked a second time.
  const again = await w.hook('claude', w.laneOne, 'Stop', claudeId, { stop_hook_active: true })
  assert.equal(again.stdout, '')
  const codexAgain = await w.hook('codex', w.laneTwo, 'Stop', codexId, { stop_hook_active: true })
  assert.equal(codexAgain.stdout.trim(), '{}')
  const third = await w.hook('claude', w.laneOne, 'Stop', claudeId)
  assert.equal(third.stdout, '', 'already handed over')
  const ledger = await w.deliver()
  assert.equal(fakeTurns(w.log).length, 0)
  assert.deepEqual(ledger.deliveries.map((row) => [row.state, row.channel]).sort(), [
    ['delivered', 'hand-over'],
    ['delivered', 'hand-over'],
  ])
  assert.deepEqual(
    ledger.turns.map((turn) => turn.channel),
    ['hand-over', 'hand-over'],
  )
})

test('stop ends a turn sangam started, from another process, and only that process', async () => {
  await using w = await world({ FAKE_VENDOR_SLEEP_MS: '60000' })
  const handle = await dormantClaude(w)
  const sent = await runCliJson<{ outcome: string; turn: { pid: number } }>(
    ['send', `@${handle}`, 'long job'],
    { cwd: w.repo.path, env: w.env },
  )
  assert.equal(sent.outcome, 'started')
  assert.ok(isAlive(sent.turn.pid))
  const listed = await runCliJson<{ sessions: { id: string; delivery: string }[] }>(['sessions'], {
    cwd: w.repo.path,
    env: w.env,
  })
  assert.equal(listed.sessions.find((session) => session.id === claudeId)?.delivery, 'running')
  const stopped = await runCliJson<{ turn: { state: string } }>(['stop', claudeId], {
    cwd: w.repo.path,
    env: w.env,
  })
  assert.equal(stopped.turn.state, 'stopped')
  await eventually(() => !isAlive(sent.turn.pid), 15_000, 'the turn’s process ended')
  const none = await w.cli(['stop', claudeId])
  assert.equal(none.code, 4)
})

test('the daemon delivers a tag posted by another process; a second daemon on the machine is refused', async () => {
  await using w = await world()
  const handle = await dormantClaude(w)
  await using up = startUp([], { cwd: w.repo.path, env: w.env })
  await up.waitFor('ready')
  const second = await w.cli(['up'])
  assert.equal(second.code, 9, 'one daemon per project and machine')
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'daemon, carry this'])).code, 0)
  await eventually(() => fakeTurns(w.log).length === 1, 15_000, 'the daemon started the turn')
  assert.match(fakeTurns(w.log)[0]?.stdin ?? '', /daemon, carry this/)
})

test('the first tag in a fresh store, posted before any delivery process looked, is carried by the daemon started later', async () => {
  await using w = await world({}, ['claude'], false)
  const handle = await dormantClaude(w)
  assert.equal((await w.cli(['post', '--to', `@${handle}`, 'first thing: rebase'])).code, 0)
  await using up = startUp([], { cwd: w.repo.path, env: w.env })
  await up.waitFor('ready')
  await eventually(() => fakeTurns(w.log).length === 1, 30_000, 'the daemon carried the first tag')
  assert.match(fakeTurns(w.log)[0]?.stdin ?? '', /first thing: rebase/)
})

test('two agents tagging each other back stop within the loop budget; the ledger says why', async () => {
  const cliMain = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js')
  await using w = await world()
  await w.hook('claude', w.laneOne, 'SessionStart', claudeId)
  await w.hook('claude', w.laneOne, 'SessionEnd', claudeId)
  await w.hook('codex', w.laneTwo, 'SessionStart', codexId)
  await w.hook('codex', w.laneTwo, 'SessionEnd', codexId)
  const claude = await w.handleOf(claudeId)
  const codex = await w.handleOf(codexId)
  assert.equal((await w.cli(['option-set', 'room.delivery-cooldown', '1'])).code, 0)
  assert.equal((await w.cli(['option-set', 'room.delivery-loop-budget', '2'])).code, 0)
  // Each fake agent, in its turn, tags the other back (as its own session: no echo).
  const reply = [
    `if [ "$SANGAM_DELIVERY_TURN" != "" ]; then`,
    `  case "$FAKE_SELF" in`,
    `    claude) cd ${JSON.stringify(w.laneOne)} && CLAUDE_CODE_SESSION_ID=${claudeId} node ${JSON.stringify(cliMain)} post --to @${codex} "your turn $SANGAM_DELIVERY_TURN";;`,
    `    codex) cd ${JSON.stringify(w.laneTwo)} && CODEX_THREAD_ID=${codexId} node ${JSON.stringify(cliMain)} post --to @${claude} "your turn $SANGAM_DELIVERY_TURN";;`,
    `  esac`,
    `fi`,
  ].join('\n')
  const script = join(w.repo.path, '..', `reply-${process.pid}.sh`)
  const { writeFileSync } = await import('node:fs')
  writeFileSync(script, reply)
  await using up = startUp([], { cwd: w.repo.path, env: { ...w.env, FAKE_VENDOR_REPLY: `sh ${script}` } })
  await up.waitFor('ready')
  assert.equal((await w.cli(['post', '--to', `@${claude}`, 'start the ping-pong'])).code, 0)
  const refusedForLoop = async (): Promise<boolean> => {
    for (
      const deadline = Date.now() + 60_000;
      Date.now() < deadline;
      await new Promise((done) => setTimeout(done, 500))
    )
      if ((await w.ledger()).deliveries.some((row) => row.reason === 'loop-budget')) return true
    return false
  }
  assert.ok(
    await refusedForLoop(),
    `a tag refused by the loop budget: ${JSON.stringify(await w.ledger())} ${JSON.stringify(fakeTurns(w.log))} ${up.stderr()}`,
  )
  // Let it settle: nothing more starts.
  await new Promise((done) => setTimeout(done, 4000))
  const ledger = await w.ledger()
  assert.ok(ledger.turns.length <= 2 * 2 + 1, `${ledger.turns.length} turns, at most 5`)
  const count = fakeTurns(w.log).length
  await new Promise((done) => setTimeout(done, 3000))
  assert.equal(fakeTurns(w.log).length, count, 'the loop stopped')
})

/** A Codex session at rest whose hooks ran under `sangam codex`: its endpoint is the app-server's. */
async function liveCodex(w: World, endpoint: string): Promise<void> {
  const env = { ...w.env, SANGAM_CODEX_ENDPOINT: endpoint, SANGAM_CODEX_LAUNCHER: String(process.pid) }
  for (const name of ['SessionStart', 'Stop']) {
    const run = await runAgentHook(
      'codex',
      {
        session_id: codexId,
        transcript_path: null,
        cwd: w.laneTwo,
        hook_event_name: name,
        prompt: 'go',
        source: 'startup',
      },
      { cwd: w.laneTwo, env },
    )
    assert.equal(run.code, 0, run.stderr)
  }
}

test('send wakes a Codex session under sangam codex in place, as the daemon does; sessions shows it live', async () => {
  await using w = await world()
  await using app = await fakeAppServer(join(w.env.HOME ?? '', 'app-server.sock'))
  await liveCodex(w, app.endpoint)
  const listed = await runCliJson<{ sessions: { id: string; delivery: string }[] }>(['sessions'], {
    cwd: w.repo.path,
    env: w.env,
  })
  assert.equal(listed.sessions.find((session) => session.id === codexId)?.delivery, 'live')
  const sent = await runCliJson<{
    outcome: string
    channel: string
    turn: { state: string; detail: string }
  }>(['send', codexId, 'look at main now'], { cwd: w.repo.path, env: w.env })
  assert.deepEqual([sent.outcome, sent.channel, sent.turn.state], ['started', 'wake', 'ended'])
  assert.match(sent.turn.detail, /turn started in place at unix:/)
  const woken = app.woken.get(codexId)
  assert.match(woken?.text ?? '', /look at main now/)
  assert.match(woken?.text ?? '', /re-observe the repository/)
  assert.equal(fakeTurns(w.log).length, 0, 'no headless codex beside the live session')
  const ledger = await w.ledger()
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.sessionId, row.state, row.channel]),
    [[codexId, 'delivered', 'wake']],
  )
})

test('a send whose app-server refuses the turn fails naming the refusal, and nothing is resumed beside the live session', async () => {
  await using w = await world()
  await using app = await fakeAppServer(join(w.env.HOME ?? '', 'app-server.sock'), { refuse: 'thread busy' })
  await liveCodex(w, app.endpoint)
  const sent = await w.cli(['send', codexId, 'are you there', '--json'])
  assert.equal(sent.code, 13, sent.stdout)
  const result = JSON.parse(sent.stdout)
  assert.equal(result.outcome, 'failed')
  assert.match(result.reason, /wake failed: .*refused turn\/start: thread busy/)
  await w.deliver()
  assert.equal(fakeTurns(w.log).length, 0)
  assert.equal(app.woken.size, 0)
})
