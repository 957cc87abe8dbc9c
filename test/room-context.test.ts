import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCli, runCliJson } from './helpers/run-cli.ts'
import { holdWriteLock } from './helpers/store-lock.ts'
import { git, tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { runAgentHook, type SessionEventName, sessionEvent } from './hooks-agent-run.ts'

/**
 * The room in the agents' context, end to end: real SQLite, real git worktrees, the compiled hook
 * run as Claude Code and Codex run it, and posts made by the compiled CLI as other sessions.
 */

const claudeId = 'c1aude00-0000-4000-8000-00000000c0de'
const codexId = '01a2264c-aff5-7b22-ace8-554acdb41e6a'

async function project() {
  const home = tmpDir()
  const repo = tmpGitRepo()
  const env = isolatedEnv(home.path, { SANGAM_USER: 'asha@example.com' })
  const { database } = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const laneOne = join(repo.path, '..', 'lane-one')
  const laneTwo = join(repo.path, '..', 'lane-two')
  git(repo.path, 'worktree', 'add', '-q', laneOne, '-b', 'lane-one')
  git(repo.path, 'worktree', 'add', '-q', laneTwo, '-b', 'lane-two')
  const hook = (host: 'claude' | 'codex', cwd: string, name: SessionEventName, sessionId: string) =>
    runAgentHook(host, sessionEvent(cwd, name, sessionId), { cwd, env })
  return {
    repo,
    env,
    database,
    laneOne,
    laneTwo,
    hook,
    /** The UserPromptSubmit context Claude's session in lane-one gets, or '' when none. */
    async claudePrompt(): Promise<string> {
      const run = await hook('claude', laneOne, 'UserPromptSubmit', claudeId)
      assert.equal(run.code, 0, run.stderr)
      if (run.stdout === '') return ''
      assert.equal(run.output?.hookSpecificOutput?.hookEventName, 'UserPromptSubmit')
      return run.output?.hookSpecificOutput?.additionalContext ?? ''
    },
    /** Posts as the Codex session of lane-two (as its agent's commands do: CODEX_THREAD_ID set). */
    codexPost: (args: readonly string[]) =>
      runCli(['post', ...args], { cwd: laneTwo, env: { ...env, CODEX_THREAD_ID: codexId } }),
    humanPost: (args: readonly string[]) => runCli(['post', ...args], { cwd: repo.path, env }),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

async function started() {
  const p = await project()
  const claude = await p.hook('claude', p.laneOne, 'SessionStart', claudeId)
  assert.equal(claude.code, 0, claude.stderr)
  const codex = await p.hook('codex', p.laneTwo, 'SessionStart', codexId)
  assert.equal(codex.code, 0, codex.stderr)
  return p
}

test("a message to the session's handle reaches its next prompt exactly once", async () => {
  await using p = await started()
  assert.equal(await p.claudePrompt(), '', 'nothing for it yet: the prompt is left alone')
  const sent = await p.codexPost(['--to', '@claude-lane-one', 'please rebase onto main before the release'])
  assert.equal(sent.code, 0, sent.stderr)
  const context = await p.claudePrompt()
  assert.match(context, /sangam room: 1 new message for you \(@claude-lane-one, #lane-one\)/)
  assert.match(
    context,
    /- codex-lane-two → @claude-lane-one at \d\d:\d\d UTC \(msg-[0-9a-f]{12}\):\n {2}please rebase onto main before the release/,
  )
  assert.equal(await p.claudePrompt(), '', 'the next prompt does not carry it again')
})

test("the worktree's target and the whole room reach it; another handle's message and its own posts do not", async () => {
  await using p = await started()
  assert.equal((await p.codexPost(['--to', '#lane-one', 'lane one: the schema moved'])).code, 0)
  assert.equal((await p.codexPost(['everyone: main is frozen'])).code, 0)
  assert.equal((await p.humanPost(['--to', '@codex-lane-two', 'codex only'])).code, 0)
  const own = await runCli(['post', 'claude says hi to the room'], {
    cwd: p.laneOne,
    env: { ...p.env, CLAUDE_CODE_SESSION_ID: claudeId },
  })
  assert.equal(own.code, 0, own.stderr)
  const context = await p.claudePrompt()
  assert.match(context, /2 new messages/)
  assert.match(context, /lane one: the schema moved/)
  assert.match(context, /→ the room .*\n {2}everyone: main is frozen/)
  assert.doesNotMatch(context, /codex only/, "another handle's message is not its business")
  assert.doesNotMatch(context, /claude says hi/, 'its own post is never echoed back')

  // The Codex session gets the human's message, and not its own posts.
  const codex = await p.hook('codex', p.laneTwo, 'UserPromptSubmit', codexId)
  assert.equal(codex.code, 0, codex.stderr)
  const codexContext = codex.output?.hookSpecificOutput?.additionalContext ?? ''
  assert.match(codexContext, /asha@example.com → @codex-lane-two/)
  assert.match(codexContext, /claude says hi to the room/)
  assert.doesNotMatch(codexContext, /schema moved|main is frozen/)
})

test("a post into a thread reaches its participants' next prompt, a #lane participant's agents too, and not the rest of the room", async () => {
  await using p = await started()
  const opened = await runCliJson<{ thread: { id: string } }>(
    ['thread-open', '--title', 'who owns the projection', '--participant', '#lane-one'],
    { cwd: p.repo.path, env: p.env },
  )
  const other = await runCliJson<{ thread: { id: string } }>(
    ['thread-open', '--title', 'release notes', '--participant', '#lane-two'],
    { cwd: p.repo.path, env: p.env },
  )
  assert.equal((await p.humanPost(['--thread', opened.thread.id, 'the projection is yours'])).code, 0)
  assert.equal((await p.humanPost(['--thread', other.thread.id, 'notes are due friday'])).code, 0)
  const context = await p.claudePrompt()
  assert.match(context, /the projection is yours/)
  assert.match(context, new RegExp(`asha@example\\.com in ${opened.thread.id}`))
  assert.doesNotMatch(context, /notes are due friday/, "another thread's post is not the whole room's")
  // Lane two's Codex session is a participant of the other thread only.
  const codex = await p.hook('codex', p.laneTwo, 'UserPromptSubmit', codexId)
  assert.equal(codex.code, 0, codex.stderr)
  assert.match(codex.stdout, /notes are due friday/)
  assert.doesNotMatch(codex.stdout, /the projection is yours/)
})

test('30 long messages: the context stays within the budget and says how many more and how to read them', async () => {
  await using p = await started()
  const long = (n: number) => `message ${n}: ${'the projection layer needs another look '.repeat(20)}`.trim()
  for (let n = 1; n <= 30; n++) {
    const run = await p.codexPost(['--to', '@claude-lane-one', long(n)])
    assert.equal(run.code, 0, run.stderr)
  }
  const context = await p.claudePrompt()
  assert.ok(context.length <= 2000, `${context.length} characters`)
  assert.match(context, /30 new messages/)
  const shown = [...context.matchAll(/\(msg-[0-9a-f]{12}\):/g)].length
  assert.ok(shown >= 1 && shown < 30, `${shown} shown`)
  assert.match(context, /message 1: /, 'oldest first')
  const more =
    /… (\d+) more for you not shown here: `sangam read --after (msg-[0-9a-f]{12})` lists them\./.exec(context)
  assert.ok(more !== null, context)
  assert.equal(Number(more[1]), 30 - shown)
  // The command it names lists exactly the ones left out.
  const rest = await runCliJson<{ messages: { text: string }[] }>(['read', '--after', more[2] ?? ''], {
    cwd: p.repo.path,
    env: p.env,
  })
  assert.equal(rest.messages.length, 30 - shown)
  assert.match(rest.messages[0]?.text ?? '', new RegExp(`^message ${shown + 1}: `))
  assert.equal(await p.claudePrompt(), '', 'told once, not again')
})

test('SessionStart carries the unseen messages before the brief, and the prompt after it does not repeat them', async () => {
  await using p = await project()
  // The session is known to the room (a first SessionStart), then a message arrives, then it resumes.
  assert.equal((await p.hook('claude', p.laneOne, 'SessionStart', claudeId)).code, 0)
  assert.equal((await p.codexPost(['--to', '@claude-lane-one', 'the API tests are red'])).code, 0)
  const resumed = await p.hook('claude', p.laneOne, 'SessionStart', claudeId)
  const context = resumed.output?.hookSpecificOutput?.additionalContext ?? ''
  assert.equal(resumed.output?.hookSpecificOutput?.hookEventName, 'SessionStart')
  assert.ok(context.length <= 2000, `${context.length} characters`)
  assert.match(context, /^sangam room: 1 new message[\s\S]*the API tests are red[\s\S]*\n\nsangam brief for /)
  assert.equal(await p.claudePrompt(), '')
})

test('a store locked by another writer leaves the prompt alone, and the message comes with the next one', async () => {
  await using p = await started()
  assert.equal((await p.codexPost(['--to', '@claude-lane-one', 'do not lose me'])).code, 0)
  const lock = await holdWriteLock(p.database)
  const run = await p.hook('claude', p.laneOne, 'UserPromptSubmit', claudeId)
  await lock.release()
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.stdout, '', 'no context, and no error in the way of the prompt')
  assert.match(await p.claudePrompt(), /do not lose me/)
  assert.equal(await p.claudePrompt(), '')
})

test('a house rule at warn reaches every session once: two agents in one worktree, told at the next prompt', async () => {
  await using p = await started()
  assert.equal(await p.claudePrompt(), '', 'one agent per worktree: nothing to say')
  // A Codex session starts in Claude's worktree: one-actor-per-worktree is at warn by default.
  const second = await p.hook('codex', p.laneOne, 'SessionStart', '01a2264c-aff5-7b22-ace8-554acdb4beef')
  assert.equal(second.code, 0, second.stderr)
  const context = await p.claudePrompt()
  assert.match(context, /^sangam house rules: 1 condition the team set to warn or refuse/)
  assert.match(
    context,
    /- one-actor-per-worktree \[warned\]: 2 agents active in #lane-one: @claude-lane-one, @codex-lane-one/,
  )
  assert.equal(await p.claudePrompt(), '', 'told once, not at every prompt')
  // The Codex session in lane-two is told too (every session's context), and once.
  const codex = await p.hook('codex', p.laneTwo, 'UserPromptSubmit', codexId)
  assert.match(codex.output?.hookSpecificOutput?.additionalContext ?? '', /one-actor-per-worktree \[warned\]/)

  // At off the rule says nothing, even to a session that has not heard it.
  await runCliJson(['rules', 'set', 'one-actor-per-worktree', 'off'], { cwd: p.repo.path, env: p.env })
  const third = await p.hook('claude', p.laneOne, 'UserPromptSubmit', 'c1aude00-0000-4000-8000-0000000000ff')
  assert.doesNotMatch(third.output?.hookSpecificOutput?.additionalContext ?? '', /house rules/)
})
