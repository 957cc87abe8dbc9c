import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import type { TargetsJson } from '../../helpers/targets-json.ts'
import { type AgentLab, openAgentLab } from '../agent-lab.ts'
import { definedEnv } from '../defined-env.ts'
import type { LoggedRequest } from '../fake-model-server.ts'

/**
 * A message tagged to a real session's handle reaches that session's next prompt: the fake model
 * servers log every request, so the test reads what the real CLI sent when the session was
 * resumed for its second prompt, and that its third prompt did not carry the message again. In
 * print mode (`-p`, `codex exec`) every prompt is a new process, so SessionStart (source `resume`)
 * runs first and is the hook that carries it; UserPromptSubmit then has nothing new. The last
 * test keeps one Claude Code process running (stream-json input), so there it is UserPromptSubmit.
 */

async function handleOf(lab: AgentLab, vendor: string, sessionId: string): Promise<string> {
  const targets = await lab.sangamJson<TargetsJson>(['targets'])
  const agent = targets.agents.find((a) => a.vendor === vendor && a.sessionId === sessionId)
  assert.ok(
    agent,
    `no ${vendor} session ${sessionId} in targets: ${JSON.stringify(targets)}\n${lab.heartbeats()}`,
  )
  return agent.handle
}

/** How many times `needle` occurs in the last main request logged after `from`. */
function countInLastMain(requests: readonly LoggedRequest[], from: number, needle: string): number {
  const main = requests.slice(from).filter((request) => request.kind === 'main')
  const last = main.at(-1)
  assert.ok(last, 'the CLI sent no main-loop request')
  return JSON.stringify(last.body).split(needle).length - 1
}

test("a message to a real Claude Code session's handle reaches its next prompt exactly once", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const first = await lab.claude('Start here.', [{ text: 'Ready.' }])
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const handle = await handleOf(lab, 'claude', first.sessionId)

  const note = 'ROOMNOTE-claude-7f3a please rebase onto main'
  await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })

  const before = lab.anthropic.requests.length
  const second = await lab.claude('What is new?', [{ text: 'Bob asks me to rebase.' }], first.sessionId)
  assert.equal(second.code, 0, second.stderr)
  assert.equal(
    countInLastMain(lab.anthropic.requests, before, note),
    1,
    `the message is in the resumed session's request once\n${lab.heartbeats()}`,
  )
  assert.match(
    JSON.stringify(lab.anthropic.requests.at(-1)?.body),
    /SessionStart hook additional context: sangam room: 1 new message for you \(@/,
  )

  const again = lab.anthropic.requests.length
  const third = await lab.claude('Anything else?', [{ text: 'No.' }], first.sessionId)
  assert.equal(third.code, 0, third.stderr)
  // The history the CLI resends may hold the earlier context; no hook added it a second time.
  assert.ok(
    countInLastMain(lab.anthropic.requests, again, note) <= 1,
    'the prompt after it does not carry the message again',
  )
})

test("a message to a real Codex session's handle reaches its next prompt exactly once", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  const first = await lab.codex('Start here.', [{ text: 'Ready.' }])
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const handle = await handleOf(lab, 'codex', first.sessionId)

  const note = 'ROOMNOTE-codex-91c2 the API tests are red'
  await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })

  const before = lab.openai.requests.length
  const second = await lab.codex('What is new?', [{ text: 'The API tests are red.' }], first.sessionId)
  assert.equal(second.code, 0, second.stderr)
  assert.equal(
    countInLastMain(lab.openai.requests, before, note),
    1,
    `the message is in the resumed thread's request once\n${lab.heartbeats()}`,
  )

  const again = lab.openai.requests.length
  const third = await lab.codex('Anything else?', [{ text: 'No.' }], first.sessionId)
  assert.equal(third.code, 0, third.stderr)
  assert.ok(countInLastMain(lab.openai.requests, again, note) <= 1, 'not carried again')
})

/**
 * One long-lived Claude Code process (`-p --input-format stream-json`), several prompts on its
 * stdin: SessionStart runs once, so the message posted between two prompts can only reach the
 * second one through UserPromptSubmit.
 */
function streamingClaude(lab: AgentLab) {
  const child = spawn(
    'claude',
    [
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'acceptEdits',
    ],
    { cwd: lab.repo.path, env: definedEnv(lab.env), stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8')
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const results = (): number => stdout.split('\n').filter((line) => line.includes('"type":"result"')).length
  return {
    output: () => `${stdout}\n${stderr}`,
    sessionId(): string | null {
      return /"session_id":"([^"]+)"/.exec(stdout)?.[1] ?? null
    },
    /** Sends a prompt and waits for its turn's result line (60 s at most: a hang, not a timing claim). */
    async prompt(text: string): Promise<void> {
      const before = results()
      child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`)
      for (let waited = 0; results() === before; waited += 100) {
        if (waited > 60_000) assert.fail(`no result for "${text}"\n${stdout}\n${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async close(): Promise<void> {
      child.stdin.end()
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
        child.on('close', () => {
          clearTimeout(timer)
          resolve()
        })
      })
    },
  }
}

test('in one running Claude Code session, UserPromptSubmit carries a message posted between two prompts, once', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  lab.anthropic.script([{ text: 'Noted.' }])
  const claude = streamingClaude(lab)
  try {
    await claude.prompt('Start here.')
    const sessionId = claude.sessionId()
    assert.ok(sessionId, claude.output())
    const handle = await handleOf(lab, 'claude', sessionId)

    const note = 'ROOMNOTE-live-5d1e the schema moved'
    await lab.sangamJson(['post', '--to', `@${handle}`, note], { SANGAM_USER: 'bob@example.com' })
    const before = lab.anthropic.requests.length
    await claude.prompt('What is new?')
    assert.equal(
      countInLastMain(lab.anthropic.requests, before, note),
      1,
      `${claude.output()}\n${lab.heartbeats()}`,
    )
    assert.match(
      JSON.stringify(lab.anthropic.requests.at(-1)?.body),
      /UserPromptSubmit hook additional context: sangam room: 1 new message/,
    )

    const again = lab.anthropic.requests.length
    await claude.prompt('Anything else?')
    assert.ok(
      countInLastMain(lab.anthropic.requests, again, note) <= 1,
      'the prompt after it does not carry it again',
    )
  } finally {
    await claude.close()
  }
})
