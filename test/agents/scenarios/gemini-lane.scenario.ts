import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import type { DeliveriesJson } from '../../helpers/deliveries-json.ts'
import { runCli } from '../../helpers/run-cli.ts'
import { git } from '../../helpers/tmp-git-repo.ts'
import { geminiCliDir, geminiCliIn } from '../agent-clis.ts'
import { type AgentLab, openAgentLab } from '../agent-lab.ts'
import type { GeminiStep } from '../fake-gemini.ts'

/**
 * Issue 22, lanes with the real Gemini CLI 0.61.0 offline: `lane b --agent gemini` is a Gemini
 * lane; a human's lane a and Gemini's lane b change the same line, lane a publishes first, so lane
 * b's `sync` starts a semantic task, which delivery carries to lane b's own dormant Gemini session
 * through `gemini --resume <id>` (the prompt on stdin). The turn runs under the user's own Gemini
 * settings, no flag of sangam's (D405): here a user who lets edits and the shell run unasked
 * (`general.defaultApprovalMode: "auto_edit"`, `tools.allowed: ["run_shell_command"]`), so Gemini
 * commits the union and writes its report, and the next `sync` publishes it.
 */

const file = 'src/greet.mjs'
const original = "export function greet(name) {\n  return 'Hello, ' + name\n}\n"
const trimmed = "export function greet(name) {\n  return 'Hello, ' + name.trim()\n}\n"
const exclaimed = "export function greet(name) {\n  return 'Hello, ' + name + '!'\n}\n"
const merged = "export function greet(name) {\n  return 'Hello, ' + name.trim() + '!'\n}\n"

interface Lane {
  lane: { name: string; branch: string; worktree: string }
  agent: { started: boolean; command: string } | null
}
interface Sync {
  outcome: string
  task: { id: string; file: string; validationFile: string } | null
  channel: string | null
}

async function sync(lab: AgentLab, worktree: string): Promise<Sync> {
  const run = await runCli(['sync', '--json'], { cwd: worktree, env: lab.env, timeoutMs: 120_000 })
  assert.equal(run.code, 0, `sangam sync in ${worktree}: ${run.stdout}\n${run.stderr}\n${turnLogs(lab)}`)
  return JSON.parse(run.stdout) as Sync
}

/** Every delivered turn's output, for failure messages. */
function turnLogs(lab: AgentLab): string {
  const dir = join(dirname(lab.databaseFile()), 'delivery-log')
  const names = existsSync(dir) ? readdirSync(dir) : []
  return names.map((name) => `\n--- ${name}\n${readFileSync(join(dir, name), 'utf8')}`).join('')
}

/** The task's turn: the merged file, a commit, the check and its report where the task said. */
function taskSteps(prompt: string, worktree: string): readonly GeminiStep[] {
  const named = /write the validation report to (\S+?),? then run sangam sync/.exec(prompt)?.[1]
  if (named === undefined) return [{ text: `NO-VALIDATION-PATH in the task prompt: ${prompt}` }]
  return [
    { tool: 'write_file', args: { file_path: join(worktree, file), content: merged } },
    {
      tool: 'run_shell_command',
      args: { command: "git add -A && git commit -q -m 'greet: trimmed and exclaimed (semantic merge)'" },
    },
    {
      tool: 'write_file',
      args: {
        file_path: named,
        content: `Merged greet: main trims, the lane exclaims; both kept.\n## Commands\n- \`node --check ${file}\` → passed\n`,
      },
    },
    { text: 'TASK-DONE: greet is the union of both sides, committed, report written.' },
  ]
}

test("a Gemini CLI lane: lane --agent gemini, and a semantic task reaches the lane's dormant Gemini session through delivery", async () => {
  await using lab = await openAgentLab()
  lab.env.PATH = `${dirname(geminiCliIn(geminiCliDir(process.env)))}:${lab.env.PATH ?? ''}`
  lab.repo.write(file, original)
  lab.repo.commit('greet')
  await lab.sangamJson(['install-hooks'])
  // The user's own choice for unattended turns (D405): edits and the shell run unasked.
  const settingsFile = join(lab.home, '.gemini', 'settings.json')
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>
  writeFileSync(
    settingsFile,
    JSON.stringify({
      ...settings,
      general: { ...(settings.general as object), defaultApprovalMode: 'auto_edit' },
      tools: { allowed: ['run_shell_command'] },
    }),
  )

  const a = await lab.sangamJson<Lane>(['lane', 'a', '--no-agent'])
  const b = await lab.sangamJson<Lane>(['lane', 'b', '--agent', 'gemini'])
  assert.deepEqual(b.agent, { started: false, command: 'gemini' }, 'outside tmux it says the command')

  // Lane a, a human's: the name trimmed, published first.
  writeFileSync(join(a.lane.worktree, file), trimmed)
  git(a.lane.worktree, 'commit', '-qam', 'greet: trim')
  assert.equal((await sync(lab, a.lane.worktree)).outcome, 'published-direct')

  // Lane b: a real Gemini CLI turn changes the same line differently; a later prompt is the task.
  lab.geminiApi.script((turn) =>
    turn.prompt.includes('semantic merge task')
      ? taskSteps(turn.prompt, b.lane.worktree)
      : [
          { tool: 'write_file', args: { file_path: join(b.lane.worktree, file), content: exclaimed } },
          { text: 'greet exclaims now.' },
        ],
  )
  const gemini = await lab.gemini(
    'End the greeting with an exclamation mark.',
    undefined,
    undefined,
    b.lane.worktree,
  )
  assert.equal(gemini.code, 0, gemini.stderr)
  assert.ok(gemini.sessionId, gemini.stderr)
  assert.equal(readFileSync(join(b.lane.worktree, file), 'utf8'), exclaimed, 'Gemini CLI wrote lane b')
  assert.match(
    JSON.stringify(lab.geminiApi.requests.find((request) => request.kind === 'main')?.body),
    /You work in lane b \(branch lane\/b\)/,
    `the lane's rules reached Gemini CLI at its SessionStart\n${lab.heartbeats()}`,
  )

  const started = await sync(lab, b.lane.worktree)
  assert.equal(started.outcome, 'task-started', JSON.stringify(started))
  const task = started.task
  assert.ok(task)
  assert.equal(
    started.channel,
    `delivery:resume:gemini:${gemini.sessionId}`,
    `the task went to lane b's own Gemini session through delivery: ${JSON.stringify(started)}`,
  )
  const deadline = Date.now() + 90_000
  let ledger: DeliveriesJson
  for (;;) {
    ledger = await lab.sangamJson<DeliveriesJson>(['deliveries', '--deliver'])
    const turn = ledger.turns.find((row) => row.sessionId === gemini.sessionId)
    if (turn !== undefined && turn.state !== 'starting' && turn.state !== 'running') break
    assert.ok(
      Date.now() < deadline,
      `the task's turn never ended\n${JSON.stringify(ledger)}\n${turnLogs(lab)}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  assert.deepEqual(
    // `sync` has exited: the sweep records the end, without the exit code only its waiter knew.
    ledger.turns.map((turn) => [turn.vendor, turn.sessionId, turn.channel, turn.state]),
    [['gemini', gemini.sessionId, 'resume', 'ended']],
    turnLogs(lab),
  )
  assert.deepEqual(
    ledger.deliveries
      .filter((row) => row.sessionId === gemini.sessionId)
      .map((row) => [row.state, row.channel]),
    [['delivered', 'resume']],
  )
  const taskRequests = lab.geminiApi.requests.filter(
    (request) => request.kind === 'main' && JSON.stringify(request.body).includes(task.id),
  )
  assert.ok(taskRequests.length > 0, "the task reached lane b's Gemini session")
  assert.equal(
    readFileSync(join(b.lane.worktree, file), 'utf8'),
    merged,
    `the lane holds the union\n${turnLogs(lab)}`,
  )
  assert.ok(existsSync(task.validationFile), `the report is where the task said\n${turnLogs(lab)}`)

  const published = await sync(lab, b.lane.worktree)
  assert.equal(published.outcome, 'published-task', JSON.stringify(published))
  assert.equal(git(lab.repo.path, 'show', `main:${file}`), merged.trimEnd(), 'main holds both edits')
})
