import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { readEnvironment } from '../src/config/environment.ts'
import { DeliveryService, type DeliveryStatus } from '../src/daemon/delivery-service.ts'
import { readScanCursor } from '../src/delivery/store/delivery-ledger.ts'
import { openProject } from '../src/project/services/open-project.ts'
import { openProjectDatabase } from '../src/project/store/project-database.ts'
import { lastMessageSeq } from '../src/room/store/message-table.ts'
import { systemClock } from '../src/shared/clock.ts'
import { silentLogger } from '../src/shared/logger.ts'
import {
  claudeWakeEntry,
  startWakeWaiter,
  stopPayload,
  waiterEnv,
  wakeRecord,
} from './helpers/claude-wake-waiter.ts'
import { fakeTurns, fakeVendorEnv } from './helpers/fake-vendor.ts'
import { runCli, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { eventually } from './helpers/up-process.ts'
import { runAgentHook } from './hooks-agent-run.ts'

/**
 * Claude Code's wake in place (D370–D373) end to end with the compiled CLI and the compiled wake
 * waiter, on a real repository and SQLite file. The test process stands in for Claude Code: it
 * runs the waiter as its child with a Stop payload and Claude Code's environment, as the real CLI
 * does with an `asyncRewake` hook (the real Claude Code 2.1.332 runs it in
 * test/agents/scenarios/claude-wake.scenario.ts). A `claude` on PATH lists the session as open in
 * a terminal, so without a wake the tag would wait for its next prompt.
 */

const sessionId = 'c1aude00-0000-4000-8000-00000000wake'

interface Ledger {
  deliveries: { messageId: string; state: string; channel: string | null; reason: string | null }[]
  turns: { id: number; sessionId: string; channel: string; state: string; detail: string | null }[]
}

interface Sessions {
  sessions: { id: string; handle: string | null; presence: string; delivery: string; why: string }[]
}

async function world() {
  const home = tmpDir('sangam-claude-wake-')
  const repo = tmpGitRepo()
  const { env, log } = fakeVendorEnv(home.path, ['claude'], {
    FAKE_CLAUDE_HELP:
      'Commands:\n  agents [options]   Manage background agents\nOptions:\n  --bg, --background   Start the session in the background\n',
    FAKE_CLAUDE_AGENTS: JSON.stringify([{ id: 'c1aude00', kind: 'interactive', sessionId, status: 'idle' }]),
  })
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const cli = (args: readonly string[], extra: Record<string, string> = {}) =>
    runCli(args, { cwd: repo.path, env: { ...env, ...extra } })
  // The first look starts the scan at the newest message: the room's history is never delivered.
  assert.equal((await cli(['deliveries', '--deliver'])).code, 0)
  // The session as Claude Code's own hooks leave it: started, one turn, at rest.
  for (const event of ['SessionStart', 'UserPromptSubmit', 'Stop']) {
    const run = await runAgentHook(
      'claude',
      { session_id: sessionId, cwd: repo.path, hook_event_name: event, prompt: 'go', source: 'startup' },
      { cwd: repo.path, env },
    )
    assert.equal(run.code, 0, run.stderr)
  }
  const sessions = (extra: Record<string, string> = {}) =>
    runCliJson<Sessions>(['sessions'], { cwd: repo.path, env: { ...env, ...extra } })
  const view = async (extra: Record<string, string> = {}) =>
    (await sessions(extra)).sessions.find((session) => session.id === sessionId)
  const handle = (await view())?.handle
  assert.ok(handle, 'the session has a handle')
  return {
    repo,
    env,
    log,
    handle,
    projectDir: dirname(database),
    cli,
    view,
    ledger: () => runCliJson<Ledger>(['deliveries'], { cwd: repo.path, env }),
    deliver: () => runCliJson<Ledger>(['deliveries', '--deliver'], { cwd: repo.path, env }),
    waiter: (more: { version?: string; entrypoint?: string } = {}) =>
      startWakeWaiter({ cwd: repo.path, env, sessionId, ...more }),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

async function waiting(w: Awaited<ReturnType<typeof world>>): Promise<void> {
  await eventually(
    () => wakeRecord(w.projectDir, sessionId)?.state === 'waiting',
    30_000,
    'the waiter waiting',
  )
}

test('a tag to an idle Claude Code session whose wake waiter listens starts one turn in place, through the waiter', async () => {
  await using w = await world()
  const before = await w.view()
  assert.deepEqual([before?.presence, before?.delivery], ['idle', 'active-elsewhere'])
  assert.match(before?.why ?? '', /next prompt; not woken in place: no wake waiter/)

  const first = w.waiter()
  await waiting(w)
  const asked = join(dirname(w.log), 'claude-agents-asked.log')
  const helped = join(dirname(w.log), 'vendor-help.log')
  const live = await w.view({ FAKE_CLAUDE_AGENTS_LOG: asked })
  assert.equal(live?.delivery, 'live')
  assert.match(live?.why ?? '', /^wakes in place: /)
  // Listing it needs no `claude agents` either: a session whose waiter listens waits at no question.
  assert.equal(existsSync(asked), false, '`sessions` did not ask `claude agents` for a live session')

  const note = 'WAKE-NOTE-1 the API tests are red'
  assert.equal(
    (await w.cli(['post', '--to', `@${w.handle}`, note], { SANGAM_USER: 'bob@example.com' })).code,
    0,
  )
  const ledger = await runCliJson<Ledger>(['deliveries', '--deliver'], {
    cwd: w.repo.path,
    env: { ...w.env, FAKE_CLAUDE_AGENTS_LOG: asked, FAKE_VENDOR_HELP_LOG: helped },
  })
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.state, row.channel]),
    [['delivered', 'wake']],
  )
  // A session at rest whose waiter listens waits at no question: Claude Code's own list (a second
  // or more to spawn, on the way of every tag) is not asked.
  assert.equal(existsSync(asked), false, '`claude agents` was not asked on the way to the wake')
  // Nor the CLI's `--help` (what it offers matters to the headless channels only): half a second
  // to more than one under load, once a minute, on the way of the tag.
  assert.equal(existsSync(helped), false, 'no vendor CLI was run on the way to the wake')
  assert.deepEqual(
    ledger.turns.map((turn) => [turn.sessionId, turn.channel, turn.state]),
    [[sessionId, 'wake', 'ended']],
  )
  assert.match(
    ledger.turns[0]?.detail ?? '',
    /^turn started in place at unix:\/\/.*\/claude\/wake-\d+\.sock$/,
  )
  // Exit 2 with the prompt on stderr: what Claude Code turns into the model's next turn.
  const woken = await first.exited
  assert.equal(woken.code, 2)
  assert.match(woken.stderr, /You were tagged in the sangam room by bob@example\.com/)
  assert.match(woken.stderr, /WAKE-NOTE-1 the API tests are red/)
  assert.equal(wakeRecord(w.projectDir, sessionId), null, 'a woken waiter leaves no record behind')
  assert.deepEqual(fakeTurns(w.log), [], 'nothing headless beside it: no --print, no --bg')

  // The woken turn's Stop starts the next waiter; a tag inside the cooldown (60 s) waits.
  const second = w.waiter()
  await waiting(w)
  assert.equal((await w.cli(['post', '--to', `@${w.handle}`, 'WAKE-NOTE-2 and the lint'])).code, 0)
  const later = await w.deliver()
  assert.deepEqual(
    later.deliveries.filter((row) => row.state === 'pending').map((row) => [row.channel, row.reason]),
    [['wake', 'cooldown']],
  )
  assert.equal(later.turns.length, 1, 'no second turn inside the cooldown')
  assert.equal(second.child.exitCode, null, 'the second waiter still waits')
  // Claude Code ends its hooks with SIGTERM as the session ends: nothing shown, the record goes.
  second.child.kill('SIGTERM')
  assert.deepEqual([(await second.exited).code, (await second.exited).stderr], [0, ''])
  assert.equal(wakeRecord(w.projectDir, sessionId), null)
})

test('the daemon weighs a post made by another process as it lands in the store, not at its next poll', async () => {
  await using w = await world()
  const waiter = w.waiter()
  await waiting(w)
  const project = openProject(readEnvironment(w.env), w.repo.path, systemClock)
  const statuses: DeliveryStatus[] = []
  const service = new DeliveryService({
    project,
    openDb: () => openProjectDatabase(project.env.sangamHome, project.repo.projectId),
    log: silentLogger,
    pid: process.pid,
    // No poll and no retry within the test: only the post's own write can start the look.
    pollMs: 3_600_000,
    retryMs: 3_600_000,
    onStatus: (status) => statuses.push(status),
  })
  try {
    // A message first, so the service's first look (at start) shows: it moves the scan past it.
    assert.equal((await w.cli(['post', 'BEFORE nothing to wake'])).code, 0)
    const before = lastMessageSeq(project.db)
    const running = service.run()
    await eventually(() => (readScanCursor(project.db) ?? 0) >= before, 30_000, 'the first look')
    // Another process posts the tag, as `sangam post`, a hook or an MCP server does.
    assert.equal(
      (
        await w.cli(['post', '--to', `@${w.handle}`, 'LANDED-NOTE look now'], {
          SANGAM_USER: 'bob@example.com',
        })
      ).code,
      0,
    )
    await eventually(() => statuses.length > 0, 30_000, 'the tag weighed')
    const woken = await waiter.exited
    assert.equal(woken.code, 2)
    assert.match(woken.stderr, /LANDED-NOTE look now/)
    assert.deepEqual(
      statuses.map((status) => [status.sessionId, status.outcome, status.channel]),
      [[sessionId, 'started', 'wake']],
    )
    await service.stop()
    await running
  } finally {
    await service.stop()
    project.db.close()
    if (waiter.child.exitCode === null) waiter.child.kill('SIGTERM')
  }
})

test('where no waiter waits, delivery falls back as before and sessions says why', async () => {
  await using w = await world()
  // An older Claude Code: the waiter exits at once, nothing shown, and says why in its record.
  const old = await w.waiter({ version: '2.1.100' }).exited
  assert.deepEqual([old.code, old.stderr], [0, ''])
  assert.equal(wakeRecord(w.projectDir, sessionId)?.state, 'unsupported')
  const view = await w.view()
  assert.equal(view?.delivery, 'active-elsewhere')
  assert.match(view?.why ?? '', /not woken in place: Claude Code 2\.1\.100 is older than 2\.1\.219/)
  assert.equal((await w.cli(['post', '--to', `@${w.handle}`, 'OLD-NOTE ping'])).code, 0)
  const ledger = await w.deliver()
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.state, row.channel, row.reason]),
    [['pending', 'next-prompt', 'next-prompt']],
    'it waits for the next prompt, as it always has',
  )
  assert.deepEqual(ledger.turns, [])

  // A waiter killed outright (SIGKILL) leaves its record and socket: never taken for a live one.
  const killed = w.waiter()
  await waiting(w)
  killed.child.kill('SIGKILL')
  await killed.exited
  const stale = await w.view()
  assert.equal(stale?.delivery, 'active-elsewhere')
  assert.match(stale?.why ?? '', /its wake waiter has ended/)
  const after = await w.deliver()
  assert.deepEqual(after.turns, [], 'no wake through a dead waiter')
})

test('a print or SDK session never waits: its Stop hook returns at once and records nothing', async () => {
  await using w = await world()
  const print = await w.waiter({ entrypoint: 'sdk-cli' }).exited
  assert.deepEqual([print.code, print.stderr], [0, ''])
  assert.equal(wakeRecord(w.projectDir, sessionId), null)
  // Outside a sangam project it is as quiet.
  await using elsewhere = tmpDir('sangam-not-a-project-')
  const outside = await startWakeWaiter({ cwd: elsewhere.path, env: w.env, sessionId }).exited
  assert.deepEqual([outside.code, outside.stderr], [0, ''])
})

test('a waiter takes one wake, for its own session only, and one waiter serves one Claude Code process', async () => {
  await using w = await world()
  const first = w.waiter()
  await waiting(w)
  const socket = String(wakeRecord(w.projectDir, sessionId)?.socket)
  // A second Stop hook of the same Claude Code process (the waiter has not been used) leaves at once.
  const extra = await w.waiter().exited
  assert.deepEqual([extra.code, extra.stderr], [0, ''])
  assert.equal(wakeRecord(w.projectDir, sessionId)?.socket, socket, 'the first still waits')

  const ask = (session: string, prompt: string) =>
    new Promise<string>((resolve, reject) => {
      const connection = connect(socket)
      let answer = ''
      connection.setEncoding('utf8')
      connection.on('data', (chunk: string) => {
        answer += chunk
      })
      connection.on('close', () => resolve(answer))
      connection.on('error', reject)
      connection.write(`${JSON.stringify({ wake: session, prompt })}\n`)
    })
  assert.match(await ask('someone-else', 'not yours'), /"ok":false,"why":"this waiter waits for session/)
  const answers = await Promise.allSettled([ask(sessionId, 'ONE'), ask(sessionId, 'TWO')])
  const texts = answers.map((answer) =>
    answer.status === 'fulfilled' ? answer.value : String(answer.reason),
  )
  assert.equal(texts.filter((text) => text === '{"ok":true}\n').length, 1, texts.join(' | '))
  const woken = await first.exited
  assert.equal(woken.code, 2)
  assert.ok(['ONE', 'TWO'].includes(woken.stderr), `one prompt on stderr, whole: ${woken.stderr}`)
})

test('a waiter whose Claude Code died without ending it leaves on its own, and its record goes', async () => {
  await using w = await world()
  // A stand-in Claude Code that starts the waiter and is then killed outright (2.1.219 leaves its
  // hooks behind even on a clean exit).
  const parent = spawn(
    process.execPath,
    [
      '-e',
      `const { spawn } = require('node:child_process')
       const child = spawn(process.execPath, [${JSON.stringify(claudeWakeEntry)}], { env: ${JSON.stringify(waiterEnv({ cwd: w.repo.path, env: w.env, sessionId }))}, cwd: ${JSON.stringify(w.repo.path)}, stdio: ['pipe', 'ignore', 'ignore'] })
       child.stdin.end(${JSON.stringify(stopPayload(w.repo.path, sessionId))})
       setInterval(() => {}, 1000)`,
    ],
    { stdio: 'ignore' },
  )
  await waiting(w)
  const record = wakeRecord(w.projectDir, sessionId)
  assert.equal(record?.claudePid, parent.pid)
  const waiterPid = Number(record?.waiterPid)
  parent.kill('SIGKILL')
  await eventually(() => !alive(waiterPid), 30_000, 'the orphaned waiter leaving')
  assert.equal(wakeRecord(w.projectDir, sessionId), null)
  assert.throws(() => readFileSync(String(record?.socket)), /ENOENT/, 'its socket is removed')
})

/** Whether `pid` runs (a zombie nobody reaped yet has ended). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))
  } catch {
    return false
  }
}
