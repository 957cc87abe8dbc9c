import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { startServeWith } from '../../../server/test/helpers/serve-process.ts'
import { shortSession } from '../../../src/identity/core/session-id.ts'
import { runCli } from '../../helpers/run-cli.ts'
import { git, tmpDir } from '../../helpers/tmp-git-repo.ts'
import { type AgentLab, openAgentLab } from '../agent-lab.ts'
import type { ClaudeStep } from '../fake-anthropic.ts'
import type { GeminiStep } from '../fake-gemini.ts'
import type { FakeModelServer } from '../fake-model-server.ts'
import type { CodexStep } from '../fake-openai.ts'
import type { ChatStep } from '../fake-openai-chat.ts'
import { type LabDaemon, startLabDaemon, until } from '../lab-daemon.ts'

/**
 * Issue 22's mixed team: two machines (each its own HOME, SANGAM_HOME, clone of one bare remote
 * and fake model servers) joined to one `sangam serve` on 127.0.0.1. Machine A runs the real
 * Claude Code and Gemini CLI, machine B the real Codex and opencode, each set up by sangam's own
 * commands (`init --server`, `join`, `identify --machine`, `install-hooks`, `lane`, `up`).
 * One set of leases: the file Claude Code's edit auto-leased on A is refused to Codex and opencode
 * on B and to Gemini CLI on A, and the file Codex's edit leased on B to Claude Code on A.
 * One room: a post on B is in the next model request of each of the four sessions once (Claude
 * Code's and Codex's sessions were under way, Gemini CLI's and opencode's start after it). One
 * main: each machine's lane syncs, and the shared remote's `main` holds both edits, which both
 * machines' `status` and `log` show.
 */

const alice = 'alice@example.com'
const bob = 'bob@example.com'

interface Lane {
  lane: { name: string; worktree: string }
}
interface WhoHas {
  leases: { holder: { human: string; vendor: string | null; sessionId: string | null } }[]
}
interface Log {
  events: { type: string; lane: string; machineName: string | null; human: string | null }[]
}

/** The main-loop requests `server` logged after its first `from`, each as the JSON it received. */
function mainRequests(server: FakeModelServer, from: number): string[] {
  return server.requests
    .slice(from)
    .filter((request) => request.kind === 'main')
    .map((request) => JSON.stringify(request.body))
}

/**
 * What each vendor's model asks its CLI for to change one line of a file: Claude Code reads the
 * file, then writes it whole (a one-line file); the others edit the line in place.
 */
function claudeWrites(file: string, line: string): ClaudeStep[] {
  return [
    { tool: 'Read', input: { file_path: file } },
    { tool: 'Write', input: { file_path: file, content: `${line}\n` } },
  ]
}

function geminiReplaces(file: string, before: string, after: string): GeminiStep {
  return {
    tool: 'replace',
    args: { file_path: file, old_string: before, new_string: after, instruction: 'edit' },
  }
}

function opencodeEdits(file: string, before: string, after: string): ChatStep[] {
  return [
    { tool: 'read', input: { filePath: file } },
    { tool: 'edit', input: { filePath: file, oldString: before, newString: after } },
  ]
}

function codexPatches(path: string, before: string, after: string): CodexStep {
  return { patch: `*** Begin Patch\n*** Update File: ${path}\n@@\n-${before}\n+${after}\n*** End Patch\n` }
}

/** How many times `needle` is in `text`. */
function times(text: string | undefined, needle: string): number {
  return (text ?? '').split(needle).length - 1
}

/** Waits for `lab`'s replica to show a lease of `vendor`'s session on `path` (its daemon pulls it). */
function leaseArrives(lab: AgentLab, daemon: LabDaemon, path: string, vendor: string): Promise<WhoHas> {
  return until(
    `${path}'s ${vendor} lease reaching ${lab.repo.path}`,
    async () => {
      const who = await lab.sangamJson<WhoHas>(['who-has', path])
      return who.leases.some((lease) => lease.holder.vendor === vendor) ? who : null
    },
    60_000,
    async () => `daemon:\n${daemon.output()}\nhooks:\n${lab.heartbeats()}`,
  )
}

async function sync(lab: AgentLab, worktree: string): Promise<{ outcome: string; main: string }> {
  const run = await runCli(['sync', '--json'], { cwd: worktree, env: lab.env, timeoutMs: 120_000 })
  assert.equal(run.code, 0, `sangam sync in ${worktree}: ${run.stdout}\n${run.stderr}`)
  return JSON.parse(run.stdout) as { outcome: string; main: string }
}

/** A machine's part of the team's set-up, as its user types it after `init --server` or `join`. */
async function setUpMachine(lab: AgentLab, machine: string, lane: string, agent: string): Promise<Lane> {
  await lab.sangamJson(['identify', '--machine', machine])
  await lab.sangamJson(['install-hooks'])
  // `-p`, `exec` and `run` end their session with each prompt: its auto-leases stay for the others.
  await lab.sangamJson(['leases', '--session-end', 'keep'])
  return lab.sangamJson<Lane>(['lane', lane, '--agent', agent])
}

test('a mixed team on two machines shares one room, one set of leases and one main', async (t) => {
  await using root = tmpDir('sangam-mixed-team-')
  const serverHome = join(root.path, 'server')
  mkdirSync(serverHome)
  const serving = startServeWith(['--port', '0', '--data', join(serverHome, 'data')], serverHome)
  const origin = join(root.path, 'origin.git')
  git(root.path, 'init', '-q', '--bare', '-b', 'main', origin)
  await using a = await openAgentLab({ user: alice })
  git(a.repo.path, 'remote', 'add', 'origin', origin)
  git(a.repo.path, 'push', '-q', '-u', 'origin', 'main')
  await using b = await openAgentLab({ user: bob, cloneOf: origin })
  const served = await serving
  await using _server = { [Symbol.asyncDispose]: () => served.stop().then(() => undefined) }

  // The team: A creates the project on the server, B joins with A's connection line on stdin.
  await a.sangamJson(['init', '--no-mcp', '--server', served.url])
  const line = (await a.sangam(['connection'])).stdout.trim()
  const joined = await runCli(['join'], { cwd: b.repo.path, env: b.env, input: line, timeoutMs: 120_000 })
  assert.equal(joined.code, 0, `${joined.stdout}\n${joined.stderr}`)
  const [laneA, laneB] = await Promise.all([
    setUpMachine(a, 'machine-a', 'alice', 'claude'),
    setUpMachine(b, 'machine-b', 'bob', 'codex'),
  ])
  const [daemonA, daemonB] = await Promise.all([startLabDaemon(a), startLabDaemon(b)])
  await using _daemons = {
    [Symbol.asyncDispose]: async () => {
      await daemonA[Symbol.asyncDispose]()
      await daemonB[Symbol.asyncDispose]()
    },
  }

  await t.test('one set of leases and one room', async () => {
    // Claude Code on A, in lane alice: its Write of src/a.ts takes an auto-lease on the server.
    const aInLaneA = join(laneA.lane.worktree, 'src', 'a.ts')
    const claude = await a.claude(
      'Set a to 2 in src/a.ts.',
      [...claudeWrites(aInLaneA, 'export const a = 2'), { text: 'a is 2.' }],
      undefined,
      laneA.lane.worktree,
    )
    assert.equal(claude.code, 0, claude.stderr)
    assert.ok(claude.sessionId, claude.stdout)
    assert.equal(readFileSync(aInLaneA, 'utf8'), 'export const a = 2\n')
    const claudeHolder = `src/a.ts is being edited by ${alice}'s claude session ${shortSession(claude.sessionId)}`

    // Codex on B, in lane bob, once B's replica has the lease: its patch of src/a.ts is refused
    // naming Claude Code's session, its patch of src/b.ts goes through under a lease of its own.
    await leaseArrives(b, daemonB, 'src/a.ts', 'claude')
    const codex = await b.codex(
      'Set a to 5 and b to 2.',
      [
        codexPatches('src/a.ts', 'export const a = 1', 'export const a = 5'),
        codexPatches('src/b.ts', 'export const b = 1', 'export const b = 2'),
        { text: 'b is 2; a is being edited on the other machine.' },
      ],
      undefined,
      laneB.lane.worktree,
    )
    assert.equal(codex.code, 0, codex.stderr)
    assert.ok(codex.sessionId, codex.stdout)
    assert.equal(readFileSync(join(laneB.lane.worktree, 'src', 'a.ts'), 'utf8'), 'export const a = 1\n')
    assert.equal(readFileSync(join(laneB.lane.worktree, 'src', 'b.ts'), 'utf8'), 'export const b = 2\n')
    assert.ok(
      times(mainRequests(b.openai, 0).at(-1), claudeHolder) >= 1,
      `Codex's model saw the refusal naming Claude Code's session on A\n${b.heartbeats()}`,
    )

    // The room: bob posts on B; once A has it, each vendor's next request carries it.
    const note = 'ROOMNOTE-mixed-4e1f the release branch is cut at noon'
    const posted = await b.sangamJson<{ message: { id: string } }>(['post', note])
    await until(
      'the post reaching A',
      async () => {
        const read = await a.sangamJson<{ messages: { id: string }[] }>(['read'])
        return read.messages.some((message) => message.id === posted.message.id) ? true : null
      },
      60_000,
      async () => daemonA.output(),
    )
    const from = {
      claude: a.anthropic.requests.length,
      gemini: a.geminiApi.requests.length,
      codex: b.openai.requests.length,
      opencode: b.chat.requests.length,
    }

    // Gemini CLI on A, in the main checkout: refused, naming Claude Code's session on its machine.
    const aInA = join(a.repo.path, 'src', 'a.ts')
    const gemini = await a.gemini('Set a to 3 in src/a.ts.', [
      geminiReplaces(aInA, 'a = 1', 'a = 3'),
      { text: 'src/a.ts is being edited by another session.' },
    ])
    assert.equal(gemini.code, 0, gemini.stderr)
    assert.equal(readFileSync(aInA, 'utf8'), 'export const a = 1\n', 'Gemini CLI left the file as it was')
    assert.ok(
      times(mainRequests(a.geminiApi, from.gemini).at(-1), claudeHolder) >= 1,
      `Gemini's model saw the refusal naming Claude Code's session\n${a.heartbeats()}`,
    )

    // opencode on B, in the main checkout: refused too.
    const aInB = join(b.repo.path, 'src', 'a.ts')
    const opencode = await b.opencode('Set a to 4 in src/a.ts.', [
      ...opencodeEdits(aInB, 'export const a = 1', 'export const a = 4'),
      { text: 'src/a.ts is being edited on the other machine.' },
    ])
    assert.equal(opencode.code, 0, opencode.stderr)
    assert.equal(readFileSync(aInB, 'utf8'), 'export const a = 1\n', 'opencode left the file as it was')
    assert.ok(
      times(mainRequests(b.chat, from.opencode).at(-1), claudeHolder) >= 1,
      `opencode's model saw the refusal naming Claude Code's session on A\n${b.heartbeats()}`,
    )

    // Claude Code's next prompt, on A: it may not write src/b.ts, which Codex's edit on B leased.
    await leaseArrives(a, daemonA, 'src/b.ts', 'codex')
    const bInLaneA = join(laneA.lane.worktree, 'src', 'b.ts')
    const again = await a.claude(
      'What is new? Then set b to 3 in src/b.ts.',
      [
        ...claudeWrites(bInLaneA, 'export const b = 3'),
        { text: 'src/b.ts is being edited on the other machine.' },
      ],
      claude.sessionId,
      laneA.lane.worktree,
    )
    assert.equal(again.code, 0, again.stderr)
    assert.equal(readFileSync(bInLaneA, 'utf8'), 'export const b = 1\n', 'Claude Code left the file')
    assert.ok(
      times(
        mainRequests(a.anthropic, from.claude).at(-1),
        `src/b.ts is being edited by ${bob}'s codex session ${shortSession(codex.sessionId)}`,
      ) >= 1,
      `Claude Code's model saw the refusal naming Codex's session on B\n${a.heartbeats()}`,
    )

    // Codex's next prompt, on B.
    const codexAgain = await b.codex(
      'What is new?',
      [{ text: 'Noted.' }],
      codex.sessionId,
      laneB.lane.worktree,
    )
    assert.equal(codexAgain.code, 0, codexAgain.stderr)

    assert.deepEqual(
      {
        claude: times(mainRequests(a.anthropic, from.claude)[0], note),
        gemini: times(mainRequests(a.geminiApi, from.gemini)[0], note),
        codex: times(mainRequests(b.openai, from.codex)[0], note),
        opencode: times(mainRequests(b.chat, from.opencode)[0], note),
      },
      { claude: 1, gemini: 1, codex: 1, opencode: 1 },
      `each vendor's next request carries the post once\nA:\n${a.heartbeats()}\nB:\n${b.heartbeats()}`,
    )
    // Both machines' room directory holds the four sessions, each on its machine.
    for (const [lab, daemon] of [
      [a, daemonA],
      [b, daemonB],
    ] as const) {
      const everyone = await until(
        `the four sessions in ${lab.repo.path}'s targets`,
        async () => {
          const targets = await lab.sangamJson<{ agents: { vendor: string; machineName: string | null }[] }>([
            'targets',
          ])
          const seen = targets.agents.map((agent) => `${agent.vendor}@${agent.machineName}`).sort()
          return seen.length === 4 ? seen : null
        },
        60_000,
        async () => daemon.output(),
      )
      assert.deepEqual(everyone, [
        'claude@machine-a',
        'codex@machine-b',
        'gemini@machine-a',
        'opencode@machine-b',
      ])
    }
  })

  await t.test('one main', async () => {
    const published = await sync(a, laneA.lane.worktree)
    assert.equal(published.outcome, 'published-direct')
    const merged = await sync(b, laneB.lane.worktree)
    assert.equal(merged.outcome, 'published-merge')
    assert.equal(git(origin, 'rev-parse', 'main'), merged.main, "B's publish is the remote's main")
    assert.equal(git(origin, 'show', 'main:src/a.ts'), 'export const a = 2', "A's edit")
    assert.equal(git(origin, 'show', 'main:src/b.ts'), 'export const b = 2', "B's edit")
    assert.equal((await sync(a, laneA.lane.worktree)).outcome, 'caught-up')

    for (const [lab, daemon] of [
      [a, daemonA],
      [b, daemonB],
    ] as const) {
      const status = await lab.sangamJson<{ main: string }>(['status'])
      assert.equal(status.main, merged.main, `${lab.repo.path}'s main is the shared one`)
      const publishes = await until(
        'both publishes in the log',
        async () => {
          const log = await lab.sangamJson<Log>(['log'])
          const seen = log.events
            .filter((event) => event.type.startsWith('sync.published'))
            .map((event) => `${event.type} ${event.lane}@${event.machineName} by ${event.human}`)
          return seen.length === 2 ? seen : null
        },
        60_000,
        async () => daemon.output(),
      )
      assert.deepEqual(publishes, [
        `sync.published-direct alice@machine-a by ${alice}`,
        `sync.published-merge bob@machine-b by ${bob}`,
      ])
    }
  })
})
