import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test } from 'node:test'
import type { DeliveriesJson } from '../../helpers/deliveries-json.ts'
import { runCli } from '../../helpers/run-cli.ts'
import { git } from '../../helpers/tmp-git-repo.ts'
import { type AgentLab, openAgentLab, transcriptLines } from '../agent-lab.ts'
import { definedEnv } from '../defined-env.ts'
import type { ClaudeStep } from '../fake-anthropic.ts'
import type { CodexStep } from '../fake-openai.ts'

/**
 * Issue 11 with the real CLIs: a Claude Code lane and a Codex lane change the same function; the
 * Claude lane publishes first, a second Claude Code lane's other file merges on top, so git cannot
 * merge the Codex lane and its `sync` starts a semantic task. Delivery carries the task to the lane's own (dormant) Codex thread by resuming it; the
 * fake model answers that turn with the merged function, a commit and a validation report written
 * to the path the task named, and the lane's next `sync` publishes it: `main` holds both changes.
 * The second test swaps the vendors: the task reaches a dormant Claude Code session (`claude --bg`).
 */

const file = 'src/greet.mjs'
const original = "export function greet(name) {\n  return 'Hello, ' + name\n}\n"
/** Lane a (Claude Code): the name is trimmed. */
const trimmed = "export function greet(name) {\n  return 'Hello, ' + name.trim()\n}\n"
/** Lane b (Codex): the greeting ends with an exclamation mark. */
const exclaimed = "export function greet(name) {\n  return 'Hello, ' + name + '!'\n}\n"
/** The behavioural union the task asks for. */
const merged = "export function greet(name) {\n  return 'Hello, ' + name.trim() + '!'\n}\n"

/** Lane c (Claude Code) changes another file, which git merges without help. */
const otherFile = 'src/a.ts'
const otherEdit = 'export const a = 2\n'

/** Both behaviours, checked by running the function (the command the validation report names). */
const check = `node -e 'import("./${file}").then((m) => process.exit(m.greet(" Ada ") === "Hello, Ada!" ? 0 : 1))'`

interface Lane {
  lane: { name: string; branch: string; worktree: string; state: string; owner: string }
  agent: { started: boolean; command: string } | null
}
interface Sync {
  lane: string
  outcome: string
  main: string
  task: { id: string; file: string; validationFile: string } | null
  channel: string | null
}
interface Status {
  main: string
  lock: unknown
  lanes: { name: string; state: string; task: unknown; dirty: boolean }[]
}

async function sync(lab: AgentLab, worktree: string, context = ''): Promise<Sync> {
  const run = await runCli(['sync', '--json'], { cwd: worktree, env: lab.env, timeoutMs: 120_000 })
  assert.equal(
    run.code,
    0,
    `sangam sync in ${worktree}: ${run.stdout}\n${run.stderr}\nmain worktree:\n${git(lab.repo.path, 'status', '--porcelain', '--ignored')}\nlane:\n${git(worktree, 'status', '--porcelain')}\n${context}${turnLogs(lab)}`,
  )
  return JSON.parse(run.stdout) as Sync
}

/** Polls the delivery ledger until the session's turn has ended (a hang is a failure, not a timing claim). */
async function turnEnded(lab: AgentLab, sessionId: string): Promise<DeliveriesJson['turns'][number]> {
  const deadline = Date.now() + 60_000
  for (;;) {
    // `--deliver` looks as the daemon does: a turn whose process has ended is recorded so.
    const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries', '--deliver'])
    const turn = ledger.turns.find((row) => row.sessionId === sessionId)
    if (turn !== undefined && turn.state !== 'starting' && turn.state !== 'running') return turn
    if (Date.now() > deadline) {
      const log = turn?.logFile != null && existsSync(turn.logFile) ? readFileSync(turn.logFile, 'utf8') : ''
      const stat = turn?.pid != null ? safeRead(`/proc/${turn.pid}/stat`) : ''
      assert.fail(`the task's turn never ended:\n${JSON.stringify(ledger, null, 2)}\n${stat}\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * The user's Codex sandbox for unattended turns. A lane's commits are written in the main
 * checkout's `.git/worktrees/<lane>`, and Codex 0.171.0's workspace-write sandbox keeps the git
 * directory a worktree points to read-only even when it is listed in `writable_roots` (tried:
 * `index.lock: Read-only file system`), and `codex exec resume` defaults to read-only. So a Codex
 * lane that is to commit its semantic task runs with full access, the user's own choice (D211).
 */
function allowCodexCommits(lab: AgentLab): void {
  const config = join(lab.env.CODEX_HOME ?? '', 'config.toml')
  writeFileSync(config, `sandbox_mode = "danger-full-access"\n${readFileSync(config, 'utf8')}`)
}

/** Every delivered turn's output, for failure messages. */
function turnLogs(lab: AgentLab): string {
  const dir = join(dirname(lab.databaseFile()), 'delivery-log')
  const names = existsSync(dir) ? readdirSync(dir) : []
  return names.map((name) => `\n--- ${name}\n${safeRead(join(dir, name))}`).join('')
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return `(${path} unreadable)`
  }
}

/** The task turn of lane b: the merged edit, a commit, the check and its report where the task said. */
function taskSteps(prompt: string, worktree: string): readonly CodexStep[] {
  const named = /write the validation report to (\S+?),? then run sangam sync/.exec(prompt)?.[1]
  if (named === undefined) return [{ text: `NO-VALIDATION-PATH in the task prompt: ${prompt}` }]
  const report = relative(worktree, named)
  return [
    {
      patch: `*** Begin Patch\n*** Update File: ${file}\n@@\n-  return 'Hello, ' + name.trim()\n+  return 'Hello, ' + name.trim() + '!'\n*** End Patch\n`,
    },
    { shell: `git add -A && git commit -q -m 'greet: trimmed and exclaimed (semantic merge)'` },
    {
      shell: `${check} && cat > '${report}' <<'REPORT'\nMerged greet: main trims the name, the lane adds the exclamation mark; both kept.\n## Commands\n- \`${check}\` → passed\nREPORT`,
    },
    { text: 'TASK-DONE: greet is the union of both sides, committed, report written.' },
  ]
}

test('three real lanes, both vendors: two edit one function, the semantic task reaches Codex, a third merges; main holds all', async () => {
  await using lab = await openAgentLab()
  lab.repo.write(file, original)
  lab.repo.commit('greet')
  await lab.sangamJson(['install-hooks'])
  allowCodexCommits(lab)
  // install-hooks' project-level settings name this machine's paths: kept out of git by
  // .git/info/exclude, here and in every lane's copy, so main stays publishable (D212, D312).
  assert.equal(git(lab.repo.path, 'status', '--porcelain'), '')

  const a = await lab.sangamJson<Lane>(['lane', 'a', '--agent', 'claude'])
  const b = await lab.sangamJson<Lane>(['lane', 'b', '--agent', 'codex'])
  const c = await lab.sangamJson<Lane>(['lane', 'c', '--agent', 'claude'])
  assert.deepEqual(
    [a.lane.branch, b.lane.branch, c.lane.branch, a.agent?.command, b.agent?.command, c.agent?.command],
    ['lane/a', 'lane/b', 'lane/c', 'claude', 'codex', 'claude'],
    'outside tmux each lane says the command that starts its agent',
  )

  // Lane a: a real `claude --print` turn writes the trimmed greet in its own worktree.
  const fileA = join(a.lane.worktree, file)
  const claude = await lab.claude(
    'Trim the name in greet.',
    [
      { tool: 'Read', input: { file_path: fileA } },
      { tool: 'Write', input: { file_path: fileA, content: trimmed } },
      { text: 'greet trims the name now.' },
    ],
    undefined,
    a.lane.worktree,
  )
  assert.equal(claude.code, 0, claude.stderr)
  assert.equal(readFileSync(fileA, 'utf8'), trimmed, 'Claude Code wrote the file in lane a')
  assert.match(
    JSON.stringify(lab.anthropic.requests.find((request) => request.kind === 'main')?.body),
    /You work in lane a \(branch lane\/a\)/,
    `the lane's rules reached Claude Code in its SessionStart context\n${lab.heartbeats()}`,
  )

  // Lane b: a real `codex exec` turn changes the same line differently; later prompts are the task.
  lab.openai.script((turn) =>
    turn.prompt.includes('semantic merge task')
      ? taskSteps(turn.prompt, b.lane.worktree)
      : [
          {
            patch: `*** Begin Patch\n*** Update File: ${file}\n@@\n-  return 'Hello, ' + name\n+  return 'Hello, ' + name + '!'\n*** End Patch\n`,
          },
          { text: 'greet exclaims now.' },
        ],
  )
  const codex = await lab.codex(
    'End the greeting with an exclamation mark.',
    undefined,
    undefined,
    b.lane.worktree,
  )
  assert.equal(codex.code, 0, codex.stderr)
  assert.ok(codex.sessionId, codex.stdout)
  const fileB = join(b.lane.worktree, file)
  assert.equal(readFileSync(fileB, 'utf8'), exclaimed, 'Codex patched the file in lane b')
  assert.match(
    JSON.stringify(lab.openai.requests.find((request) => request.kind === 'main')?.body),
    /You work in lane b \(branch lane\/b\)/,
    `the lane's rules reached Codex in its SessionStart context\n${lab.heartbeats()}`,
  )

  // Lane c: another real Claude Code turn changes another file.
  const fileC = join(c.lane.worktree, otherFile)
  const third = await lab.claude(
    'Raise a to 2.',
    [{ tool: 'Write', input: { file_path: fileC, content: otherEdit } }, { text: 'a is 2 now.' }],
    undefined,
    c.lane.worktree,
  )
  assert.equal(third.code, 0, third.stderr)
  assert.equal(readFileSync(fileC, 'utf8'), otherEdit, 'Claude Code wrote the file in lane c')

  const first = await sync(lab, a.lane.worktree)
  assert.equal(first.outcome, 'published-direct')
  assert.equal(git(lab.repo.path, 'show', `main:${file}`), trimmed.trimEnd())
  // Lane c started from the old main: git merges its other file cleanly on top of lane a.
  assert.equal((await sync(lab, c.lane.worktree)).outcome, 'published-merge')
  assert.equal(git(lab.repo.path, 'show', `main:${otherFile}`), otherEdit.trimEnd())

  // Lane b cannot be merged by git: its sync starts the task and hands it to Codex's thread.
  const started = await sync(lab, b.lane.worktree)
  assert.equal(started.outcome, 'task-started', JSON.stringify(started))
  assert.ok(started.task)
  const task = started.task
  assert.equal(git(lab.repo.path, 'show', `main:${file}`), trimmed.trimEnd(), 'main did not move')
  assert.ok(existsSync(task.file), 'the task file is written')
  assert.match(readFileSync(task.file, 'utf8'), /name \+ '!'/, "the task file carries the lane's diff")
  assert.equal(
    git(lab.repo.path, 'show', `refs/sangam/snapshots/${task.id}:${file}`),
    exclaimed.trimEnd(),
    "the lane's own work is kept under its snapshot ref",
  )
  const status = await lab.sangamJson<Status>(['status'])
  assert.ok(status.lock !== null, 'the lock is held through the task')
  assert.match(
    started.channel ?? '',
    new RegExp(`^delivery:(resume|queue):codex:${codex.sessionId}$`),
    `the task went to lane b's own Codex thread through delivery: ${JSON.stringify(started)}`,
  )

  const turn = await turnEnded(lab, codex.sessionId)
  const log = turn.logFile !== null && existsSync(turn.logFile) ? readFileSync(turn.logFile, 'utf8') : ''
  assert.equal(turn.state, 'ended', `the resumed Codex turn:\n${log}`)
  const ledger = await lab.sangamJson<DeliveriesJson>(['deliveries'])
  assert.deepEqual(
    ledger.deliveries
      .filter((row) => row.sessionId === codex.sessionId)
      .map((row) => [row.state, row.channel]),
    [['delivered', turn.channel]],
    'the ledger names the channel that carried the task',
  )
  assert.deepEqual(
    lab.openai.promptsWith(task.id).map((prompt) => [prompt.sessionId, prompt.index]),
    [[codex.sessionId, 1]],
    "the task reached lane b's Codex thread once, as its second user turn",
  )
  assert.match(transcriptLines(lab.codexRollout(codex.sessionId), 'TASK-DONE'), /TASK-DONE/)
  assert.equal(readFileSync(fileB, 'utf8'), merged, `the lane holds the merged function\n${log}`)
  assert.ok(existsSync(task.validationFile), `the report is where the task said\n${log}`)

  // A real check before main moves, as a merge queue runs: both behaviours, on the candidate.
  await lab.sangamJson(['option-set', 'lanes.check-command', check])
  const published = await sync(lab, b.lane.worktree, log)
  assert.equal(published.outcome, 'published-task', JSON.stringify(published))
  assert.equal(git(lab.repo.path, 'show', `main:${file}`), merged.trimEnd(), 'main holds both edits')
  assert.equal(
    git(lab.repo.path, 'log', '-1', '--format=%ae %s', 'main'),
    'dev@example.com greet: trimmed and exclaimed (semantic merge)',
    "main is the commit Codex made in the lane, under the lane owner's identity",
  )
  assert.equal(git(lab.repo.path, 'show', `main:${file}`), git(b.lane.worktree, 'show', `HEAD:${file}`))
  assert.equal(
    git(lab.repo.path, 'show', `main:${otherFile}`),
    otherEdit.trimEnd(),
    "main keeps lane c's work",
  )
  assert.equal((await sync(lab, a.lane.worktree)).outcome, 'caught-up')
  assert.equal((await sync(lab, c.lane.worktree)).outcome, 'caught-up')
  const after = await lab.sangamJson<Status>(['status'])
  assert.equal(after.lock, null, 'the lock is free')
  assert.deepEqual(
    after.lanes.map((lane) => [lane.name, lane.task]),
    [
      ['a', null],
      ['b', null],
      ['c', null],
    ],
  )
  const tip = git(lab.repo.path, 'rev-parse', 'main')
  for (const lane of [a, b, c]) assert.equal(git(lane.lane.worktree, 'rev-parse', 'HEAD'), tip)
})

/** The task turn of a Claude Code lane: the merged file, a commit, the check and its report. */
function claudeTaskSteps(prompt: string, worktree: string): readonly ClaudeStep[] {
  const named = /write the validation report to (\S+?),? then run sangam sync/.exec(prompt)?.[1]
  if (named === undefined) return [{ text: `NO-VALIDATION-PATH in the task prompt: ${prompt}` }]
  const target = join(worktree, file)
  return [
    { tool: 'Read', input: { file_path: target } },
    { tool: 'Write', input: { file_path: target, content: merged } },
    {
      tool: 'Bash',
      input: {
        command: `git add -A && git commit -q -m 'greet: trimmed and exclaimed (semantic merge)'`,
        description: 'Commit the union',
      },
    },
    {
      tool: 'Bash',
      input: {
        command: `${check} && cat > '${named}' <<'REPORT'\nMerged greet: main exclaims, the lane trims the name; both kept.\n## Commands\n- \`${check}\` → passed\nREPORT`,
        description: 'Check both behaviours and write the report',
      },
    },
    { text: 'TASK-DONE: greet is the union of both sides, committed, report written.' },
  ]
}

/**
 * The user's Claude Code settings for unattended turns: a resumed `claude --print` asks before it
 * edits or runs a command, and nobody is there to answer (D211).
 */
function allowClaudeEdits(lab: AgentLab): void {
  writeFileSync(
    join(lab.env.CLAUDE_CONFIG_DIR ?? '', 'settings.json'),
    `${JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash'] } }, null, 2)}\n`,
  )
}

/**
 * What a user who has run Claude Code's TUI has in its `.claude.json`: onboarding done, the API key
 * approved, and the lane's folder trusted (the TUI asks once per folder; `sangam lane` in tmux
 * starts it there). Print mode never asks, but `claude --bg`, delivery's background channel,
 * refuses an untrusted folder ("Workspace not trusted") and, without the rest, its session sits
 * `blocked` on a prompt nobody sees while the ledger says the turn was handed over.
 */
function trustClaudeWorkspace(lab: AgentLab, worktree: string): void {
  const file = join(lab.env.CLAUDE_CONFIG_DIR ?? '', '.claude.json')
  const config = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { projects?: Record<string, Record<string, unknown>> })
    : {}
  const projects = config.projects ?? {}
  projects[worktree] = { ...projects[worktree], hasTrustDialogAccepted: true }
  const key = lab.env.ANTHROPIC_API_KEY ?? ''
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        ...config,
        hasCompletedOnboarding: true,
        theme: 'dark',
        bypassPermissionsModeAccepted: true,
        customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
        projects,
      },
      null,
      2,
    )}\n`,
  )
}

test('the other way round: the Codex lane publishes first and the semantic task reaches the real Claude Code lane', async () => {
  await using lab = await openAgentLab()
  lab.repo.write(file, original)
  lab.repo.commit('greet')
  await lab.sangamJson(['install-hooks'])
  allowClaudeEdits(lab)
  const a = await lab.sangamJson<Lane>(['lane', 'a', '--agent', 'codex'])
  const b = await lab.sangamJson<Lane>(['lane', 'b', '--agent', 'claude'])

  const codex = await lab.codex(
    'End the greeting with an exclamation mark.',
    [
      {
        patch: `*** Begin Patch\n*** Update File: ${file}\n@@\n-  return 'Hello, ' + name\n+  return 'Hello, ' + name + '!'\n*** End Patch\n`,
      },
      { text: 'greet exclaims now.' },
    ],
    undefined,
    a.lane.worktree,
  )
  assert.equal(codex.code, 0, codex.stderr)
  const fileB = join(b.lane.worktree, file)
  lab.anthropic.script((turn) =>
    turn.prompt.includes('semantic merge task')
      ? claudeTaskSteps(turn.prompt, b.lane.worktree)
      : [
          { tool: 'Read', input: { file_path: fileB } },
          { tool: 'Write', input: { file_path: fileB, content: trimmed } },
          { text: 'greet trims the name now.' },
        ],
  )
  const claude = await lab.claude('Trim the name in greet.', undefined, undefined, b.lane.worktree)
  assert.equal(claude.code, 0, claude.stderr)
  assert.ok(claude.sessionId, claude.stdout)
  assert.equal(readFileSync(fileB, 'utf8'), trimmed)
  trustClaudeWorkspace(lab, b.lane.worktree)
  try {
    assert.equal((await sync(lab, a.lane.worktree)).outcome, 'published-direct')
    const started = await sync(lab, b.lane.worktree)
    assert.equal(started.outcome, 'task-started', JSON.stringify(started))
    assert.ok(started.task)
    const task = started.task
    assert.match(
      started.channel ?? '',
      new RegExp(`^delivery:(resume|background):claude:${claude.sessionId}$`),
      `the task went to lane b's own Claude Code session through delivery: ${JSON.stringify(started)}`,
    )
    const turn = await turnEnded(lab, claude.sessionId)
    const log = turn.logFile !== null && existsSync(turn.logFile) ? readFileSync(turn.logFile, 'utf8') : ''
    // `claude --bg` hands the turn to Claude Code's own background runner and exits at once.
    for (
      let waited = 0;
      !safeRead(task.validationFile).includes('→ passed') && waited < 60_000;
      waited += 250
    )
      await new Promise((resolve) => setTimeout(resolve, 250))
    assert.deepEqual(
      lab.anthropic.promptsWith(task.id).map((prompt) => [prompt.sessionId, prompt.index]),
      [[claude.sessionId, 1]],
      "the task reached lane b's Claude Code session once, as its second user turn",
    )
    assert.equal(readFileSync(fileB, 'utf8'), merged, `the lane holds the merged function\n${log}`)
    assert.ok(existsSync(task.validationFile), `the report is where the task said\n${log}`)

    await lab.sangamJson(['option-set', 'lanes.check-command', check])
    const published = await sync(lab, b.lane.worktree, log)
    assert.equal(published.outcome, 'published-task', JSON.stringify(published))
    assert.equal(git(lab.repo.path, 'show', `main:${file}`), merged.trimEnd(), 'main holds both edits')
    assert.equal((await lab.sangamJson<Status>(['status'])).lock, null, 'the lock is free')
  } finally {
    // The background runner `claude --bg` started outlives the turn: stop it and its sessions.
    spawnSync('claude', ['daemon', 'stop', '--any'], {
      env: definedEnv(lab.env),
      stdio: 'ignore',
      timeout: 30_000,
    })
  }
})
