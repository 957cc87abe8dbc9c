import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { z } from 'zod'
import {
  type SendResult,
  sendResultViewSchema,
  type TurnView,
  turnViewSchema,
} from '../src/delivery/protocol/session-view.ts'
import { isAlive } from '../src/shared/process-alive.ts'
import { fakeAppServer } from './helpers/fake-app-server.ts'
import { fakeTurns, fakeVendorEnv } from './helpers/fake-vendor.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { runCliJson } from './helpers/run-cli.ts'
import { assertAnswer } from './helpers/strict-schema.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { eventually } from './helpers/up-process.ts'
import { runAgentHook } from './hooks-agent-run.ts'

/**
 * Delivery's MCP tools (`room_send`, `room_session_start`, `room_session_stop`) driven by a real
 * MCP client over stdio against the bundled `sangam mcp`, with real executables standing in for
 * `claude` and `codex` on PATH (test/helpers/fake-vendor.ts), a real repository and SQLite file.
 */

const claudeId = 'c1aude00-0000-4000-8000-0000000000mc'
const codexId = '01a2264c-aff5-7b22-ace8-554acdb4mcp0'

type Env = Record<string, string | undefined>

interface Ledger {
  deliveries: { messageId: string; sessionId: string; state: string; channel: string | null; mode: string }[]
  turns: { id: number; sessionId: string; channel: string; state: string; why: string; pid: number | null }[]
}

/** Each tool's answer, declared once: a send's result, or the turn started or stopped. */
const sentAnswer = sendResultViewSchema
const turnAnswer = z.object({ turn: turnViewSchema })
type Sent = SendResult
type Turn = TurnView

async function world(vendors: readonly ('claude' | 'codex')[] = ['claude', 'codex']) {
  const home = tmpDir('sangam-delivery-mcp-')
  const repo = tmpGitRepo()
  const { env, log } = fakeVendorEnv(home.path, vendors)
  await runCliJson(['init', '--no-mcp'], { cwd: repo.path, env })
  const lane = join(repo.path, '..', `lane-mcp-${process.pid}-${Math.floor(Math.random() * 1e6)}`)
  git(repo.path, 'worktree', 'add', '-q', lane, '-b', `lane-${Math.floor(Math.random() * 1e9)}`)
  const hook = async (host: 'claude' | 'codex', name: string, sessionId: string, more: Env = {}) => {
    const run = await runAgentHook(
      host,
      {
        session_id: sessionId,
        transcript_path: null,
        cwd: lane,
        hook_event_name: name,
        prompt: 'go',
        source: 'startup',
        reason: 'other',
      },
      { cwd: lane, env: { ...env, ...more } },
    )
    assert.equal(run.code, 0, run.stderr)
  }
  // A look before anything is posted (every tag posted since the store was made is weighed, D273).
  await runCliJson(['deliveries', '--deliver'], { cwd: repo.path, env })
  return {
    repo,
    env,
    lane,
    log,
    hook,
    ledger: () => runCliJson<Ledger>(['deliveries'], { cwd: repo.path, env }),
    /** A session that ran once and ended: dormant, so a send resumes it. */
    async dormant(host: 'claude' | 'codex', sessionId: string): Promise<void> {
      await hook(host, 'SessionStart', sessionId)
      await hook(host, 'SessionEnd', sessionId)
    },
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>

/** The tool's structured answer, checked strictly against its view schema. */
function structured<T>(result: ToolResult, schema: z.ZodType): T {
  assert.notEqual(result.isError, true, JSON.stringify(result.content))
  assert.ok(result.structuredContent, 'a structured result')
  assertAnswer(schema, result.structuredContent, 'the tool answer')
  return result.structuredContent as T
}

function text(result: ToolResult): string {
  const [first] = result.content as { type: string; text: string }[]
  return first?.text ?? ''
}

test('room_send continues a dormant session once: a ledger row, a turn, the text on stdin; a second send within the cooldown waits, saying so', async () => {
  await using w = await world()
  await w.dormant('claude', claudeId)
  await using mcp = await connectMcp(w.repo.path, w.env)
  const first = structured<Sent>(
    await mcp.call('room_send', { session: claudeId, text: 'please rebase onto main' }),
    sentAnswer,
  )
  assert.equal(first.outcome, 'started')
  assert.equal(first.channel, 'resume')
  assert.equal(first.turn?.channel, 'resume')
  // On a loaded machine the fake may take longer to write its line than the server waits for it.
  await eventually(() => fakeTurns(w.log).length === 1, 15_000, 'the fake turn')
  const turns = fakeTurns(w.log)
  assert.equal(turns.length, 1)
  assert.deepEqual(turns[0]?.argv, ['--print', '--resume', claudeId])
  assert.match(turns[0]?.stdin ?? '', /please rebase onto main/)
  assert.equal(turns[0]?.cwd, w.lane, 'run in the session’s own worktree')
  // The MCP server watches the turn it started and records its end.
  let ledger = await w.ledger()
  for (let i = 0; i < 100 && ledger.turns[0]?.state !== 'ended'; i++) {
    await new Promise((done) => setTimeout(done, 100))
    ledger = await w.ledger()
  }
  assert.equal(ledger.turns[0]?.state, 'ended')
  assert.equal(ledger.turns[0]?.why, 'send')
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.messageId, row.sessionId, row.state, row.channel, row.mode]),
    [[first.messageId, claudeId, 'delivered', 'resume', 'send']],
  )

  const second = await mcp.call('room_send', { session: claudeId, text: 'and run the tests' })
  const waited = structured<Sent>(second, sentAnswer)
  assert.deepEqual([waited.outcome, waited.reason, waited.turn], ['pending', 'cooldown', null])
  assert.match(text(second), /cooldown/)
  const retryAt = Date.parse(waited.retryAt ?? '')
  assert.ok(
    Math.abs(retryAt - Date.now() - 60_000) < 15_000,
    `retryAt ${waited.retryAt}: the default 60 s cooldown from the first turn`,
  )
  assert.match(text(second), new RegExp(`waits until ${waited.retryAt}`), 'the text says until when')
  assert.equal(fakeTurns(w.log).length, 1, 'no second turn within the cooldown')
  const after = await w.ledger()
  const row = after.deliveries.find((entry) => entry.messageId === waited.messageId)
  assert.deepEqual([row?.state, row?.mode], ['pending', 'send'])
})

test('room_send from an agent session to itself is refused as an echo; an unknown session is a tool error naming sangam sessions', async () => {
  await using w = await world()
  await w.dormant('claude', claudeId)
  await using mcp = await connectMcp(w.lane, { ...w.env, CLAUDE_CODE_SESSION_ID: claudeId })
  const echo = structured<Sent>(
    await mcp.call('room_send', { session: claudeId, text: 'note to self' }),
    sentAnswer,
  )
  assert.deepEqual([echo.outcome, echo.reason], ['refused', 'echo'])
  const unknown = await mcp.call('room_send', { session: 'no-such-session-1234', text: 'hi' })
  assert.equal(unknown.isError, true)
  assert.match(text(unknown), /^NOT_FOUND: .*sangam sessions lists them/)
  assert.equal(fakeTurns(w.log).length, 0)
})

test('room_session_start starts a headless session in a worktree; room_session_stop ends that turn from another server', async () => {
  await using w = await world()
  const env = { ...w.env, FAKE_VENDOR_SLEEP_MS: '60000' }
  await using starter = await connectMcp(w.repo.path, env)
  const started = structured<{ turn: Turn }>(
    await starter.call('room_session_start', { vendor: 'claude', worktree: w.lane, text: 'map the modules' }),
    turnAnswer,
  )
  assert.equal(started.turn.channel, 'new')
  assert.equal(started.turn.state, 'running')
  assert.equal(started.turn.worktree, w.lane)
  await eventually(() => fakeTurns(w.log).length === 1, 15_000, 'the fake turn')
  const [turn] = fakeTurns(w.log)
  assert.equal(turn?.cwd, w.lane)
  assert.ok(turn?.argv.includes(started.turn.sessionId), `the session id sangam chose is in ${turn?.argv}`)
  assert.match(turn?.stdin ?? '', /map the modules/)
  const pid = started.turn.pid
  assert.ok(pid !== null && isAlive(pid))

  // Another agent's server stops it: the ledger knows the turn, whatever the session's hooks said.
  await using stopper = await connectMcp(w.repo.path, w.env)
  const stopped = structured<{ turn: Turn }>(
    await stopper.call('room_session_stop', { session: started.turn.sessionId }),
    turnAnswer,
  )
  assert.equal(stopped.turn.id, started.turn.id)
  assert.equal(stopped.turn.state, 'stopped')
  await eventually(() => !isAlive(pid), 15_000, 'the turn’s process ended')
  const again = await stopper.call('room_session_stop', { session: started.turn.sessionId })
  assert.equal(again.isError, true)
  assert.match(text(again), /^NOT_FOUND: /)
})

test('room_session_stop ends a resumed turn room_send started, and only a turn sangam started', async () => {
  await using w = await world()
  await w.dormant('codex', codexId)
  await using mcp = await connectMcp(w.repo.path, { ...w.env, FAKE_VENDOR_SLEEP_MS: '60000' })
  const sent = structured<Sent>(
    await mcp.call('room_send', { session: codexId, text: 'long job' }),
    sentAnswer,
  )
  assert.equal(sent.outcome, 'started')
  const pid = sent.turn?.pid ?? null
  assert.ok(pid !== null && isAlive(pid))
  const stopped = structured<{ turn: Turn }>(
    await mcp.call('room_session_stop', { session: codexId }),
    turnAnswer,
  )
  assert.equal(stopped.turn.state, 'stopped')
  await eventually(() => !isAlive(pid), 15_000, 'the turn’s process ended')
  await w.dormant('claude', claudeId)
  const none = await mcp.call('room_session_stop', { session: claudeId })
  assert.equal(none.isError, true)
  assert.match(text(none), /^NOT_FOUND: no turn sangam started runs for claude session/)
})

test('a missing vendor CLI is a clear tool error for room_send and room_session_start, and the server keeps answering', async () => {
  await using w = await world(['codex'])
  await w.dormant('claude', claudeId)
  await using mcp = await connectMcp(w.repo.path, w.env)
  const sent = await mcp.call('room_send', { session: claudeId, text: 'anyone there?' })
  assert.equal(sent.isError, true, text(sent))
  assert.match(text(sent), /^VENDOR_CLI_UNAVAILABLE: .*claude CLI was not found/)
  const started = await mcp.call('room_session_start', { vendor: 'claude', text: 'begin' })
  assert.equal(started.isError, true)
  assert.match(text(started), /^VENDOR_CLI_UNAVAILABLE: .*claude CLI was not found/)
  // The message was posted and the ledger says why it was not carried.
  const ledger = await w.ledger()
  assert.deepEqual(
    ledger.deliveries.map((row) => [row.sessionId, row.state]),
    [[claudeId, 'failed']],
  )
  assert.equal(ledger.turns.length, 0)
  // Still up: the next call is answered.
  const tools = await mcp.client.listTools()
  assert.ok(tools.tools.some((tool) => tool.name === 'room_send'))
  assert.doesNotMatch(mcp.stderr(), /INTERNAL|TypeError|at .*\.js:\d+/)
})

test('room_send wakes a Codex session under sangam codex in place, over its app-server', async () => {
  await using w = await world()
  await using app = await fakeAppServer(join(w.env.HOME ?? '', 'app-server.sock'))
  const live = { SANGAM_CODEX_ENDPOINT: app.endpoint, SANGAM_CODEX_LAUNCHER: String(process.pid) }
  await w.hook('codex', 'SessionStart', codexId, live)
  await w.hook('codex', 'Stop', codexId, live)
  await using mcp = await connectMcp(w.repo.path, w.env)
  const sent = structured<Sent>(
    await mcp.call('room_send', { session: codexId, text: 'rebase please' }),
    sentAnswer,
  )
  assert.deepEqual([sent.outcome, sent.channel], ['started', 'wake'])
  assert.match(app.woken.get(codexId)?.text ?? '', /rebase please/)
  assert.equal(fakeTurns(w.log).length, 0)
})
