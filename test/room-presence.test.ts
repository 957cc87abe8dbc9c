import assert from 'node:assert/strict'
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { runAgentHook, type SessionEventName, sessionEvent } from './hooks-agent-run.ts'

/**
 * Presence and targets end to end: the compiled hooks record presence as Claude Code and Codex run
 * them, and the compiled CLI's `targets` and `identify` read and claim it, in real repositories.
 */

interface TargetsJson {
  agents: {
    handle: string
    vendor: string
    sessionId: string
    state: string
    worktree: string | null
    machine: string
  }[]
  worktrees: {
    path: string
    target: string
    branch: string | null
    uncommitted: number | null
    activeAgents: number
    ageDays: number | null
    missing: boolean
  }[]
}

async function project() {
  const home = tmpDir()
  const repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  await runCliJson(['init'], { cwd: repo.path, env })
  const lane = join(repo.path, '..', 'lane-one')
  git(repo.path, 'worktree', 'add', '-q', lane, '-b', 'lane-one')
  return {
    repo,
    env,
    lane,
    hook: (host: 'claude' | 'codex', cwd: string, name: SessionEventName, sessionId: string) =>
      runAgentHook(host, sessionEvent(cwd, name, sessionId), { cwd, env }),
    targets: () => runCliJson<TargetsJson>(['targets'], { cwd: repo.path, env }),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

test('hooks record presence: SessionStart and UserPromptSubmit online, Stop idle, SessionEnd offline', async () => {
  await using p = await project()
  const start = await p.hook('claude', p.lane, 'SessionStart', 'c1aude-0001')
  assert.equal(start.code, 0, start.stderr)
  assert.equal(
    start.output?.hookSpecificOutput?.hookEventName,
    'SessionStart',
    'the brief is still the answer',
  )
  let agents = (await p.targets()).agents
  assert.deepEqual(
    agents.map((a) => [a.handle, a.vendor, a.state, a.worktree]),
    [['claude-lane-one', 'claude', 'online', p.lane]],
  )

  const stop = await p.hook('claude', p.lane, 'Stop', 'c1aude-0001')
  assert.equal(stop.code, 0, stop.stderr)
  assert.equal(stop.stdout, '', 'Claude Code gets no output from Stop')
  assert.equal((await p.targets()).agents[0]?.state, 'idle')

  const prompt = await p.hook('claude', p.lane, 'UserPromptSubmit', 'c1aude-0001')
  assert.equal(prompt.code, 0, prompt.stderr)
  assert.equal(prompt.stdout, '', 'UserPromptSubmit is quiet for now')
  assert.equal((await p.targets()).agents[0]?.state, 'online')

  const codexStop = await p.hook('codex', p.repo.path, 'Stop', '019a-codex-1')
  assert.equal(codexStop.code, 0, codexStop.stderr)
  assert.deepEqual(JSON.parse(codexStop.stdout), {}, 'Codex requires a JSON object from Stop')

  const end = await p.hook('claude', p.lane, 'SessionEnd', 'c1aude-0001')
  assert.equal(end.code, 0, end.stderr)
  const targets = await p.targets()
  agents = targets.agents
  assert.deepEqual(
    agents.map((a) => [a.handle, a.state]),
    [
      ['claude-lane-one', 'offline'],
      ['codex-repo', 'idle'],
    ],
  )
  assert.equal(new Set(agents.map((a) => a.machine)).size, 1, 'one machine')
  const lane = targets.worktrees.find((w) => w.path === p.lane)
  assert.deepEqual(
    [lane?.target, lane?.branch, lane?.activeAgents, lane?.uncommitted],
    ['lane-one', 'lane-one', 0, 0],
  )
  assert.ok(typeof lane?.ageDays === 'number' && lane.ageDays >= 0, `ageDays ${lane?.ageDays}`)
  assert.equal(targets.worktrees.find((w) => w.path === p.repo.path)?.activeAgents, 1)
})

test('two sessions in one worktree get distinct, stable handles; identify claims one that survives', async () => {
  await using p = await project()
  await p.hook('claude', p.lane, 'SessionStart', 'aaaa-1111')
  await p.hook('claude', p.lane, 'SessionStart', 'bbbb-2222')
  await p.hook('claude', p.lane, 'Stop', 'aaaa-1111')
  let handles = (await p.targets()).agents.map((a) => [a.sessionId, a.handle])
  assert.deepEqual(handles, [
    ['aaaa-1111', 'claude-lane-one'],
    ['bbbb-2222', 'claude-lane-one-2'],
  ])

  const claimed = await runCliJson<{ agent: { handle: string; previous: string; sessionId: string } }>(
    ['identify', 'bbbb', 'reviewer'],
    { cwd: p.repo.path, env: p.env },
  )
  assert.deepEqual(claimed.agent, {
    handle: 'reviewer',
    previous: 'claude-lane-one-2',
    vendor: 'claude',
    sessionId: 'bbbb-2222',
  })
  await p.hook('claude', p.repo.path, 'UserPromptSubmit', 'bbbb-2222')
  handles = (await p.targets()).agents.map((a) => [a.sessionId, a.handle])
  assert.deepEqual(handles[1], ['bbbb-2222', 'reviewer'], 'the claim survives a move to another worktree')

  const refusals: [string[], RegExp, number][] = [
    [['identify', 'aaaa', 'reviewer'], /@reviewer is held by the claude session bbbb-222/, 2],
    [['identify', '@claude-lane-one', 'human'], /reserved/, 2],
    [['identify', 'aaaa', 'Bad Name!'], /not a handle/, 2],
    [['identify', 'zzzz', 'free'], /no session "zzzz"/, 4],
  ]
  for (const [args, message, code] of refusals) {
    const result = await runCli(args, { cwd: p.repo.path, env: p.env })
    assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`)
    assert.match(result.stderr, message)
  }
  await runCliJson(['identify', '@claude-lane-one', 'lead'], { cwd: p.repo.path, env: p.env })
  assert.deepEqual(
    (await p.targets()).agents.map((a) => a.handle),
    ['lead', 'reviewer'],
    'a refusal changed nothing; a handle is also a session reference',
  )
})

test('targets: a detached HEAD, a worktree deleted from disk and two worktrees with one directory name', async () => {
  await using p = await project()
  const a = join(p.repo.path, '..', 'a', 'lane')
  const b = join(p.repo.path, '..', 'b', 'lane')
  mkdirSync(join(p.repo.path, '..', 'a'))
  mkdirSync(join(p.repo.path, '..', 'b'))
  git(p.repo.path, 'worktree', 'add', '-q', a, '-b', 'lane-a')
  git(p.repo.path, 'worktree', 'add', '-q', '--detach', b)
  writeFileSync(join(a, 'new.txt'), 'draft\n')
  writeFileSync(join(a, 'README.md'), 'changed\n')
  rmSync(p.lane, { recursive: true, force: true })

  const first = await p.targets()
  const byPath = new Map(first.worktrees.map((w) => [w.path, w]))
  assert.deepEqual(
    [byPath.get(a)?.target, byPath.get(a)?.branch, byPath.get(a)?.uncommitted],
    ['a-lane', 'lane-a', 2],
  )
  assert.deepEqual(
    [byPath.get(b)?.target, byPath.get(b)?.branch, byPath.get(b)?.missing],
    ['b-lane', null, false],
  )
  const gone = first.worktrees.find((w) => w.target === 'lane-one')
  assert.deepEqual([gone?.missing, gone?.uncommitted, gone?.ageDays], [true, null, null])
  assert.deepEqual(await p.targets(), first, 'the same targets on every run')

  await p.hook('codex', b, 'SessionStart', 'codex-detached')
  const text = await runCli(['targets'], { cwd: p.repo.path, env: p.env })
  assert.equal(text.code, 0, text.stderr)
  assert.match(text.stdout, /^agent\s+vendor\s+state/m)
  assert.match(text.stdout, /^@codex-lane\s+codex\s+online/m)
  assert.match(text.stdout, /^#b-lane\s+\(detached\)/m)
  assert.match(text.stdout, /^#lane-one\s+\(missing: git worktree prune\)/m)
  assert.deepEqual(
    (await p.targets()).agents.map((x) => [x.handle, x.worktree]),
    [['codex-lane', b]],
    'the detached worktree is still where the session is',
  )
})

test('an idle Claude session that `claude agents --json` no longer lists is offline in targets only', async () => {
  await using p = await project()
  await p.hook('claude', p.lane, 'Stop', 'gone-session')
  await p.hook('claude', p.lane, 'Stop', 'live-session')
  await using bin = tmpDir()
  const claude = join(bin.path, 'claude')
  writeFileSync(
    claude,
    [
      '#!/bin/sh',
      'if [ "$1" = "--help" ]; then printf "Usage: claude\\n\\nCommands:\\n  agents   list sessions\\n"; exit 0; fi',
      // It lists sessions only for the user's own config dir: targets must pass the environment on.
      `if [ "$1" = "agents" ] && [ "$CLAUDE_CONFIG_DIR" = "${p.env.CLAUDE_CONFIG_DIR ?? 'unset'}" ]; then`,
      `  echo '[{"sessionId":"live-session","status":"idle"}]'; exit 0`,
      'fi',
      'exit 1',
    ].join('\n'),
  )
  chmodSync(claude, 0o755)
  const env = { ...p.env, PATH: `${bin.path}:${p.env.PATH ?? ''}` }
  const targets = await runCliJson<TargetsJson>(['targets'], { cwd: p.repo.path, env })
  assert.deepEqual(
    targets.agents.map((a) => [a.sessionId, a.state]),
    [
      ['gone-session', 'offline'],
      ['live-session', 'idle'],
    ],
  )
  // Without a claude that lists sessions, both stay as the hooks left them.
  const plain = await p.targets()
  assert.deepEqual(
    plain.agents.map((a) => a.state),
    ['idle', 'idle'],
  )
})

test('the machine id is one 0600 file per data dir: two SANGAM_HOMEs are two machines', async () => {
  await using p = await project()
  await using other = tmpDir()
  const otherEnv = isolatedEnv(other.path)
  await runCliJson(['init'], { cwd: p.repo.path, env: otherEnv })
  await p.hook('claude', p.lane, 'SessionStart', 'one')
  await runAgentHook('claude', sessionEvent(p.lane, 'SessionStart', 'two'), { cwd: p.lane, env: otherEnv })
  const here = (await p.targets()).agents[0]?.machine
  const there = (await runCliJson<TargetsJson>(['targets'], { cwd: p.repo.path, env: otherEnv })).agents[0]
    ?.machine
  assert.match(here ?? '', /^m_[0-9a-f]{16}$/)
  assert.match(there ?? '', /^m_[0-9a-f]{16}$/)
  assert.notEqual(here, there)
  const file = join(p.env.SANGAM_HOME ?? '', 'machine-id')
  assert.equal(readFileSync(file, 'utf8').trim(), here)
  assert.equal(statSync(file).mode & 0o777, 0o600)
  assert.equal((await p.targets()).agents[0]?.machine, here, 'stable across runs')
})
