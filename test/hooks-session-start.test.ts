import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { gitCallLog } from './helpers/git-call-log.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/** SessionStart hands the session its brief; with the store unreadable, a one-line warning instead. */
test('SessionStart answers with the session’s brief as additional context', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  await runCliJson(['init'], { cwd: repo.path, env })
  const run = await runAgentHook(
    'codex',
    sessionEvent(repo.path, 'SessionStart', '01a2264c-aff5-7b22-ace8-554acdb41e6a'),
    {
      cwd: repo.path,
      env,
    },
  )
  assert.equal(run.code, 0, run.stderr)
  assert.equal(run.output?.hookSpecificOutput?.hookEventName, 'SessionStart')
  const context = run.output?.hookSpecificOutput?.additionalContext ?? ''
  assert.match(context, /^sangam brief for dev@example\.com's codex session 01a2264c \(first brief\)/)
  assert.ok(context.length <= 2000, `${context.length} characters`)
  const again = await runAgentHook(
    'codex',
    sessionEvent(repo.path, 'SessionStart', '01a2264c-aff5-7b22-ace8-554acdb41e6a'),
    {
      cwd: repo.path,
      env,
    },
  )
  assert.match(
    again.output?.hookSpecificOutput?.additionalContext ?? '',
    /\(last brief /,
    'a resumed session is told what is new',
  )
})

test('a resumed session’s SessionStart runs no git while HEAD has not moved, and git log once it has', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  repo.commit('first')
  const log = gitCallLog(home.path)
  const env = log.env(isolatedEnv(home.path))
  await runCliJson(['init'], { cwd: repo.path, env })
  const start = () =>
    runAgentHook('claude', sessionEvent(repo.path, 'SessionStart', 's-resumed'), { cwd: repo.path, env })
  const first = await start()
  assert.match(first.output?.hookSpecificOutput?.additionalContext ?? '', /first brief/)
  log.reset()
  const again = await start()
  assert.match(again.output?.hookSpecificOutput?.additionalContext ?? '', /\(last brief /)
  assert.deepEqual(log.calls(), [], 'HEAD and main read from their files, no git log')
  repo.commit('landed while away')
  log.reset()
  const moved = await start()
  assert.match(moved.output?.hookSpecificOutput?.additionalContext ?? '', /landed while away/)
  assert.ok(
    log.calls().some((call) => call[0] === 'log'),
    'the new commits come from git log',
  )
})

test('with the store unreadable, SessionStart gives an empty brief with a one-line warning', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  const { database } = await runCliJson<{ database: string }>(['init'], { cwd: repo.path, env })
  for (const file of [database, `${database}-wal`, `${database}-shm`]) rmSync(file, { force: true })
  writeFileSync(database, 'garbage\n'.repeat(500))
  const run = await runAgentHook('claude', sessionEvent(repo.path, 'SessionStart', 's1'), {
    cwd: repo.path,
    env,
  })
  assert.equal(run.code, 0, run.stderr)
  assert.match(
    run.output?.hookSpecificOutput?.additionalContext ?? '',
    /^sangam: the team brief is unavailable \(.+\)\.$/,
  )
})

test('the SessionStart brief lists the leases others hold, with holder, reason and expiry', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  await runCliJson(['init'], { cwd: repo.path, env })
  await runCliJson(['claim', 'src/parser/**', '-r', 'rewriting the parser'], {
    cwd: repo.path,
    env: { ...env, SANGAM_USER: 'bob@example.com' },
  })
  await runCliJson(['claim', 'docs/**', '-r', 'docs pass'], {
    cwd: repo.path,
    env: { ...env, CLAUDE_CODE_SESSION_ID: 's-own' },
  })
  const run = await runAgentHook('claude', sessionEvent(repo.path, 'SessionStart', 's-own'), {
    cwd: repo.path,
    env,
  })
  const context = run.output?.hookSpecificOutput?.additionalContext ?? ''
  assert.match(
    context,
    /Leases \(edits to files others hold are refused\):\n- src\/parser\/\*\*: bob@example\.com until (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(in [^)]+\): "rewriting the parser"/,
  )
  assert.equal(context.match(/Leases \(/g)?.length, 1, 'one lease section')
  assert.doesNotMatch(context, /docs\/\*\*: /, 'the session does not see its own lease as a wall')
})
