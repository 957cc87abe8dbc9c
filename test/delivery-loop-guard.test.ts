import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { fakeVendorEnv } from './helpers/fake-vendor.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { readStore } from './helpers/read-store.ts'
import type { AgentReply, ReplyPlan } from './helpers/room-reply.ts'
import { cliEntry, projectRoot, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { startUi } from './helpers/ui-process.ts'
import { eventually } from './helpers/up-process.ts'
import { runAgentHook } from './hooks-agent-run.ts'

/**
 * The loop guard whatever channel agents answer through (issue 19 item 2, D270): two stand-in
 * agents, a fake `claude` and a fake `codex` on PATH (fake-vendor.ts), answer every tag that
 * reaches them by tagging the other back (room-reply.ts), under a real `sangam up`, through the
 * channels their vendors give them: MCP (Codex: no session id; Claude Code: with it) and `sangam
 * post` run in a terminal carrying the vendor's variables but no session id. One person's tag from
 * the dashboard starts it; at most 2 × budget + 1 turns follow.
 */

const claudeId = 'c1aude00-0000-4000-8000-0000000100p5'
const codexId = '01a2264c-aff5-7b22-ace8-554acd100p50'
const secondCodexId = '01a2264c-aff5-7b22-ace8-554acd100p51'
const budget = 2
const bound = 2 * budget + 1
const hasScript = spawnSync('script', ['--version']).status === 0
const replyProgram = join(projectRoot, 'test', 'helpers', 'room-reply.ts')

/**
 * A project with two dormant agents, one in each of two lanes: lane one's is a Claude Code
 * session (or a second Codex one), lane two's a Codex session.
 */
async function world(first: 'claude' | 'codex' = 'claude') {
  const home = tmpDir('sangam-loop-')
  const repo = tmpGitRepo()
  const { env } = fakeVendorEnv(home.path, ['claude', 'codex'])
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const lane = (name: string): string => {
    const path = join(repo.path, '..', `${name}-${process.pid}-${Math.floor(Math.random() * 1e6)}`)
    git(repo.path, 'worktree', 'add', '-q', path, '-b', `${name}-${Math.floor(Math.random() * 1e9)}`)
    return path
  }
  const laneOne = lane('loop-one')
  const laneTwo = lane('loop-two')
  const firstId = first === 'claude' ? claudeId : secondCodexId
  // Each agent ran once and ended: dormant, so a tag resumes it.
  for (const [host, sessionId, cwd] of [
    [first, firstId, laneOne],
    ['codex', codexId, laneTwo],
  ] as const)
    for (const name of ['SessionStart', 'SessionEnd']) {
      const run = await runAgentHook(
        host,
        {
          session_id: sessionId,
          transcript_path: null,
          cwd,
          hook_event_name: name,
          source: 'startup',
          reason: 'other',
        },
        { cwd, env },
      )
      assert.equal(run.code, 0, run.stderr)
    }
  const sessions = await runCliJson<{ sessions: { id: string; handle: string | null }[] }>(['sessions'], {
    cwd: repo.path,
    env,
  })
  const handleOf = (id: string): string => {
    const handle = sessions.sessions.find((session) => session.id === id)?.handle
    assert.ok(handle, `no handle for ${id}`)
    return handle
  }
  for (const [name, value] of [
    ['room.delivery-cooldown', '1'],
    ['room.delivery-loop-budget', String(budget)],
  ] as const)
    assert.equal((await runCli(['option-set', name, value], { cwd: repo.path, env })).code, 0)
  return {
    repo,
    env,
    database,
    /** Real paths: what the stand-in agents see as their working directory. */
    laneOne: realpathSync(laneOne),
    laneTwo: realpathSync(laneTwo),
    firstId,
    /** The handles of lane one's and lane two's agents. */
    one: handleOf(firstId),
    two: handleOf(codexId),
    replyLog: join(home.path, 'reply.log'),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

type World = Awaited<ReturnType<typeof world>>

interface Ledger {
  readonly turns: { id: number; session_id: string; cause: string; state: string }[]
  readonly loopRefused: number
  readonly open: number
}

/** The ledger as it stands, read from the store itself. */
function ledger(database: string): Ledger {
  return readStore(database, (db) => {
    const turns = db
      .prepare('SELECT id, session_id, cause, state FROM delivery_turn ORDER BY id')
      .all() as Ledger['turns']
    const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n
    return {
      turns,
      loopRefused: count(
        "SELECT count(*) AS n FROM delivery WHERE state = 'refused' AND reason = 'loop-budget'",
      ),
      open:
        count("SELECT count(*) AS n FROM delivery WHERE state IN ('pending', 'starting')") +
        turns.filter((turn) => turn.state === 'starting' || turn.state === 'running').length,
    }
  })
}

/**
 * Starts `sangam up --ui` with the agents of lane one and lane two answering as `one` and `two`
 * say, has a person tag lane one's agent from the dashboard, and waits for the event that settles
 * it: the bound broken (a turn past it), or a tag refused for the loop budget with nothing left
 * pending or running. Every turn after the person's must be agent-caused. Returns the ledger.
 */
async function pingPong(
  w: World,
  one: Omit<AgentReply, 'cwd' | 'to'>,
  two: Omit<AgentReply, 'cwd' | 'to'>,
): Promise<Ledger> {
  const plan: ReplyPlan = {
    log: w.replyLog,
    agents: {
      [w.laneOne]: { ...one, cwd: w.laneOne, to: `@${w.two}` },
      [w.laneTwo]: { ...two, cwd: w.laneTwo, to: `@${w.one}` },
    },
  }
  // tsx by its own path: the fake vendors run in the lanes, where no node_modules resolves it.
  const reply = [process.execPath, '--import', import.meta.resolve('tsx'), replyProgram]
    .map((word) => JSON.stringify(word))
    .join(' ')
  await using up = await startUi(['up', '--ui', '--no-open', '--json'], {
    cwd: w.repo.path,
    env: { ...w.env, FAKE_VENDOR_REPLY: reply, ROOM_REPLY: JSON.stringify(plan) },
  })
  const kickoff = await up.request('/api/messages', {
    method: 'POST',
    json: { text: `@${w.one} start the ping-pong` },
    headers: { origin: `http://127.0.0.1:${up.port}`, 'sec-fetch-site': 'same-origin' },
  })
  assert.equal(kickoff.status, 200, kickoff.body)
  const why = (): string =>
    `${JSON.stringify(ledger(w.database))}; ${JSON.stringify(dump(w.database))}; replies: ${existsSync(w.replyLog) ? readFileSync(w.replyLog, 'utf8') : 'no failure'}; up: ${up.stderr()}`
  await eventually(
    () => {
      const now = ledger(w.database)
      return now.turns.length > bound || (now.loopRefused > 0 && now.open === 0)
    },
    120_000,
    'the loop to stop or break its bound',
  ).catch((error: Error) => assert.fail(`${error.message}: ${why()}`))
  const settled = ledger(w.database)
  assert.ok(
    settled.turns.length <= bound,
    `${settled.turns.length} turns for one person's tag, at most ${bound}: ${why()}`,
  )
  assert.deepEqual(
    settled.turns.map((turn) => turn.cause),
    ['human', ...settled.turns.slice(1).map(() => 'agent')],
    `the person's tag, then the agents' answers: ${why()}`,
  )
  return settled
}

/** Who wrote the answers of the agent with this handle, as `session:author`. */
function answers(w: World, handle: string): Set<string> {
  return readStore(w.database, (db) => {
    const rows = db.prepare('SELECT session_id, author FROM room_message WHERE sender = ?').all(handle) as {
      session_id: string | null
      author: string
    }[]
    return new Set(rows.map((row) => `${row.session_id}:${row.author}`))
  })
}

function dump(database: string): unknown {
  return readStore(database, (db) => ({
    deliveries: db.prepare('SELECT * FROM delivery').all(),
    messages: db.prepare('SELECT id, sender, author, session_id, recipients, at FROM room_message').all(),
  }))
}

/** The environment Codex gives an MCP server: a short allow-list, never its thread id (openai/codex#19937). */
function codexMcpEnv(env: Record<string, string | undefined>): Record<string, string> {
  const kept = ['HOME', 'PATH', 'SANGAM_HOME', 'SANGAM_USER', 'SANGAM_LOG']
  return Object.fromEntries(
    kept.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name] as string]])),
  )
}

function defined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}

test('two Codex agents answering each other through MCP, which gives them no session id, stop within 2 × budget + 1 turns', async () => {
  await using w = await world('codex')
  const codexStyle = { channel: 'mcp', env: codexMcpEnv(w.env), client: 'codex-mcp-client' } as const
  await pingPong(w, codexStyle, codexStyle)
  // Their answers came without a session, and the MCP server called them an agent's.
  assert.deepEqual(answers(w, 'codex-of-asha@example.com'), new Set(['null:agent']))
})

test('a Claude Code agent answering through MCP with its session id and a Codex agent without one stop within 2 × budget + 1 turns', async () => {
  await using w = await world('claude')
  await pingPong(
    w,
    {
      channel: 'mcp',
      env: { ...defined(w.env), CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: claudeId },
      client: 'claude-code',
    },
    { channel: 'mcp', env: codexMcpEnv(w.env), client: 'codex-mcp-client' },
  )
  assert.deepEqual(answers(w, w.one), new Set([`${claudeId}:agent`]))
  assert.deepEqual(answers(w, 'codex-of-asha@example.com'), new Set(['null:agent']))
})

test('agents answering with sangam post in a terminal, carrying their vendor’s variables but no session id, stop within 2 × budget + 1 turns', {
  skip: !hasScript && 'needs util-linux script for a pty',
}, async () => {
  await using w = await world('claude')
  const { SANGAM_DELIVERY_TURN: _turn, ...base } = defined(w.env)
  await pingPong(
    w,
    { channel: 'terminal', env: { ...base, TERM: 'dumb', CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' } },
    {
      channel: 'terminal',
      env: { ...base, TERM: 'dumb', CODEX_MANAGED_BY_NPM: '1', CODEX_SANDBOX_NETWORK_DISABLED: '1' },
    },
  )
  assert.deepEqual(answers(w, 'asha@example.com'), new Set(['null:human', 'null:agent']))
})

test("each channel says who wrote a post: a terminal is a person's, a pipe nobody's, an agent's variables or the MCP server an agent's", {
  skip: !hasScript && 'needs util-linux script for a pty',
}, async () => {
  await using w = await world()
  const inTerminal = (text: string, more: Record<string, string> = {}): void => {
    const command = [process.execPath, cliEntry, 'post', text].map((word) => `'${word}'`).join(' ')
    const run = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: w.repo.path,
      env: { ...defined(w.env), TERM: 'dumb', ...more },
      encoding: 'utf8',
    })
    assert.equal(run.status, 0, run.stdout)
  }
  inTerminal('typed at a terminal')
  inTerminal('typed with codex configured', { CODEX_HOME: join(w.repo.path, '.codex-home') })
  inTerminal('run by claude code', { CLAUDECODE: '1' })
  inTerminal('run by codex in a pty', { CODEX_SANDBOX_NETWORK_DISABLED: '1' })
  assert.equal((await runCli(['post', 'from a script'], { cwd: w.repo.path, env: w.env })).code, 0)
  assert.equal(
    (
      await runCli(['post', 'from a turn sangam started'], {
        cwd: w.repo.path,
        env: { ...w.env, SANGAM_DELIVERY_TURN: '9' },
      })
    ).code,
    0,
  )
  {
    await using mcp = await connectMcp(w.repo.path, w.env)
    const posted = await mcp.call('room_post', { text: 'from an MCP client that names no vendor' })
    assert.notEqual(posted.isError, true, JSON.stringify(posted.content))
  }
  const { messages } = await runCliJson<{ messages: { text: string; author: string }[] }>(['read'], {
    cwd: w.repo.path,
    env: w.env,
  })
  assert.deepEqual(
    messages.map((message) => [message.text, message.author]),
    [
      ['typed at a terminal', 'human'],
      ['typed with codex configured', 'human'],
      ['run by claude code', 'agent'],
      ['run by codex in a pty', 'agent'],
      ['from a script', 'unknown'],
      ['from a turn sangam started', 'agent'],
      ['from an MCP client that names no vendor', 'agent'],
    ],
  )
})
