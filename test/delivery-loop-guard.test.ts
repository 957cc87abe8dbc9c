import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import Database from 'better-sqlite3'
import { writeFakeVendor } from './helpers/fake-vendor.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import type { AgentReply, ReplyPlan } from './helpers/room-reply.ts'
import { cliEntry, isolatedEnv, projectRoot, runCli, runCliJson } from './helpers/run-cli.ts'
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
const budget = 2
const bound = 2 * budget + 1
const hasScript = spawnSync('script', ['--version']).status === 0
const replyProgram = join(projectRoot, 'test', 'helpers', 'room-reply.ts')

async function world() {
  const home = tmpDir('sangam-loop-')
  const repo = tmpGitRepo()
  const bin = join(home.path, 'fake-bin')
  writeFakeVendor(bin, 'claude')
  writeFakeVendor(bin, 'codex')
  const env = isolatedEnv(home.path, {
    SANGAM_USER: 'asha@example.com',
    PATH: `${bin}:${process.env.PATH}`,
    FAKE_VENDOR_LOG: join(home.path, 'fake-vendor.jsonl'),
  })
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const lane = (name: string): string => {
    const path = join(repo.path, '..', `${name}-${process.pid}-${Math.floor(Math.random() * 1e6)}`)
    git(repo.path, 'worktree', 'add', '-q', path, '-b', `${name}-${Math.floor(Math.random() * 1e9)}`)
    return path
  }
  const laneOne = lane('loop-one')
  const laneTwo = lane('loop-two')
  // Each agent ran once and ended: dormant, so a tag resumes it.
  for (const [host, sessionId, cwd] of [
    ['claude', claudeId, laneOne],
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
    laneOne,
    laneTwo,
    claude: handleOf(claudeId),
    codex: handleOf(codexId),
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
  const db = new Database(database, { readonly: true })
  try {
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
  } finally {
    db.close()
  }
}

/**
 * Starts `sangam up --ui` with the agents answering as `agents` says, has a person tag the Claude
 * agent from the dashboard, and waits for the event that settles it: the bound broken (a turn past
 * it), or a tag refused for the loop budget with nothing left pending or running. Returns the ledger.
 */
async function pingPong(w: World, agents: Record<'claude' | 'codex', AgentReply>): Promise<Ledger> {
  const plan: ReplyPlan = { log: w.replyLog, agents }
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
    json: { text: `@${w.claude} start the ping-pong` },
    headers: { origin: `http://127.0.0.1:${up.port}`, 'sec-fetch-site': 'same-origin' },
  })
  assert.equal(kickoff.status, 200, kickoff.body)
  assert.equal(
    kickoff.json<{ message: { author: string } }>().message.author,
    'human',
    'the dashboard is a person',
  )
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
  return settled
}

function dump(database: string): unknown {
  const db = new Database(database, { readonly: true })
  try {
    return {
      deliveries: db.prepare('SELECT * FROM delivery').all(),
      messages: db.prepare('SELECT id, sender, author, session_id, recipients, at FROM room_message').all(),
    }
  } finally {
    db.close()
  }
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

test('agents answering through MCP, Codex without a session id and Claude Code with it, stop within 2 × budget + 1 turns', async () => {
  await using w = await world()
  const settled = await pingPong(w, {
    claude: {
      channel: 'mcp',
      cwd: w.laneOne,
      to: `@${w.codex}`,
      env: { ...defined(w.env), CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: claudeId },
      client: 'claude-code',
    },
    codex: {
      channel: 'mcp',
      cwd: w.laneTwo,
      to: `@${w.claude}`,
      env: codexMcpEnv(w.env),
      client: 'codex-mcp-client',
    },
  })
  assert.equal(settled.turns[0]?.cause, 'human', "the person's tag")
  assert.ok(settled.turns.slice(1).every((turn) => turn.cause === 'agent'))
  // Codex's answers really came without a session: the MCP server called them an agent's.
  const db = new Database(w.database, { readonly: true })
  try {
    const codexPosts = db
      .prepare("SELECT session_id, author FROM room_message WHERE sender LIKE 'codex%'")
      .all() as { session_id: string | null; author: string }[]
    assert.ok(codexPosts.length > 0)
    assert.deepEqual(
      new Set(codexPosts.map((row) => `${row.session_id}:${row.author}`)),
      new Set(['null:agent']),
    )
  } finally {
    db.close()
  }
})

test('agents answering with sangam post in a terminal, carrying their vendor’s variables but no session id, stop within 2 × budget + 1 turns', {
  skip: !hasScript && 'needs util-linux script for a pty',
}, async () => {
  await using w = await world()
  const { SANGAM_DELIVERY_TURN: _turn, ...base } = defined(w.env)
  const settled = await pingPong(w, {
    claude: {
      channel: 'terminal',
      cwd: w.laneOne,
      to: `@${w.codex}`,
      env: { ...base, TERM: 'dumb', CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' },
    },
    codex: {
      channel: 'terminal',
      cwd: w.laneTwo,
      to: `@${w.claude}`,
      env: { ...base, TERM: 'dumb', CODEX_MANAGED_BY_NPM: '1', CODEX_SANDBOX_NETWORK_DISABLED: '1' },
    },
  })
  assert.equal(settled.turns[0]?.cause, 'human')
  assert.ok(settled.turns.slice(1).every((turn) => turn.cause === 'agent'))
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
