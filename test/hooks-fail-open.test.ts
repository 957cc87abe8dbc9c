import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { holdExclusiveLock, holdWriteLock } from './helpers/store-lock.ts'
import { tmpDir, tmpGitRepo, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { agentHookEntry, claudeEdit, runAgentHook } from './hooks-agent-run.ts'

/**
 * DESIGN §4: when the hook cannot decide (store unreadable or locked, input it cannot read, time
 * budget spent) the edit goes through, and the agent is told it went unchecked.
 */
async function project() {
  const home = tmpDir()
  const repo = tmpRepoWith({ 'src/a.ts': 'export const a = 1\n' })
  const env = isolatedEnv(home.path)
  const init = await runCliJson<{ database: string }>(['init'], { cwd: repo.path, env })
  await runCliJson(['claim', 'src/a.ts', '-r', 'parser work'], {
    cwd: repo.path,
    env: { ...env, SANGAM_USER: 'bob@example.com' },
  })
  const edit = claudeEdit(repo.path, join(repo.path, 'src', 'a.ts'))
  return {
    repo,
    env,
    database: init.database,
    edit,
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

function failedOpen(run: Awaited<ReturnType<typeof runAgentHook>>, why: RegExp): void {
  assert.equal(run.code, 0, run.stderr)
  const output = run.output?.hookSpecificOutput
  assert.equal(output?.permissionDecision, undefined, `no decision when unchecked: ${run.stdout}`)
  assert.match(
    output?.additionalContext ?? '',
    /sangam could not check this edit against file leases \(.+\); it was allowed\./,
  )
  assert.match(run.stderr, why)
}

test('malformed hook stdin is allowed and reported, never a crash', async () => {
  await using p = await project()
  for (const stdin of [
    '',
    'not json at all',
    '{"tool_name": "Write"}',
    '[1,2,3]',
    '{"session_id": 7, "hook_event_name": "PreToolUse"}',
  ]) {
    const run = await runAgentHook('claude', null, { cwd: p.repo.path, env: p.env, stdin })
    assert.equal(run.code, 0, run.stderr)
    assert.equal(run.stdout, '', stdin)
    assert.match(
      run.stderr,
      /hook stdin is not a hook payload of Claude Code, Codex, Gemini CLI or opencode/,
      stdin,
    )
  }
})

test('a payload over the size cap is allowed, and the answer says it was too big to read', async () => {
  await using p = await project()
  const payload = { ...p.edit, tool_input: { ...p.edit.tool_input, content: 'x'.repeat(65 * 1024 * 1024) } }
  await using scratch = tmpDir()
  const stdinFile = join(scratch.path, 'payload.json')
  writeFileSync(stdinFile, JSON.stringify(payload))
  const run = await runAgentHook('claude', null, { cwd: p.repo.path, env: p.env, stdinFile })
  failedOpen(run, /hook stdin is over the 64 MiB a hook reads, so it is not read as a hook payload/)
})

test('a missing database is reported, not passed silently, where the project is expected', async () => {
  await using p = await project()
  rmSync(p.database, { force: true })
  for (const suffix of ['-wal', '-shm']) rmSync(`${p.database}${suffix}`, { force: true })
  const run = await runAgentHook('claude', p.edit, { cwd: p.repo.path, env: p.env })
  failedOpen(run, /the project's store .*sangam\.db is missing; run `sangam init` in this repository/)
  // A repository with no sangam record at all, where only a user-level hook runs: quiet.
  await using other = tmpGitRepo()
  other.write('a.ts', '')
  other.commit('one')
  const quietRun = await runAgentHook('claude', claudeEdit(other.path, join(other.path, 'a.ts')), {
    cwd: other.path,
    env: p.env,
  })
  assert.equal(quietRun.stdout, '')
  assert.equal(quietRun.stderr, '')
})

test('an unreadable store (not a database, or not a file) lets the edit through and says so', async () => {
  await using p = await project()
  for (const file of [p.database, `${p.database}-wal`, `${p.database}-shm`]) rmSync(file, { force: true })
  writeFileSync(p.database, 'this is not an SQLite database, it is garbage\n'.repeat(200))
  failedOpen(
    await runAgentHook('claude', p.edit, { cwd: p.repo.path, env: p.env }),
    /not a usable sangam database/,
  )
  rmSync(p.database)
  mkdirSync(p.database)
  failedOpen(
    await runAgentHook('claude', p.edit, { cwd: p.repo.path, env: p.env }),
    /cannot open|disk I\/O error/,
  )
})

test('a store locked by another process fails open quickly, within the time budget', async () => {
  await using p = await project()
  await using _lock = await holdExclusiveLock(p.database)
  const run = await runAgentHook('claude', p.edit, { cwd: p.repo.path, env: p.env })
  // On a loaded machine the budget may run out before the busy timeout does: both fail open.
  failedOpen(run, /locked|time budget/)
  // Well short of SQLite's default 5 s wait: the budget, plus a generous allowance for start-up.
  assert.ok(run.ms < 1500 + 2500, `answered in ${Math.round(run.ms)} ms`)
})

test('a writer holding the lock does not stop a denial; an allowed edit goes through, its auto-lease kept for the next hook', async () => {
  await using p = await project()
  const lock = await holdWriteLock(p.database)
  const denied = await runAgentHook('claude', p.edit, { cwd: p.repo.path, env: p.env })
  assert.equal(denied.output?.hookSpecificOutput?.permissionDecision, 'deny', denied.stdout)
  const free = claudeEdit(p.repo.path, join(p.repo.path, 'src', 'new.ts'))
  const run = await runAgentHook('claude', free, { cwd: p.repo.path, env: p.env })
  assert.equal(run.code, 0)
  assert.equal(run.output?.hookSpecificOutput?.permissionDecision, undefined, run.stdout)
  assert.match(
    run.output?.hookSpecificOutput?.additionalContext ?? '',
    /auto-lease was not recorded in time; the edit is allowed, and sangam records the lease afterwards/,
  )
  assert.match(run.stderr, /kept and done afterwards: the auto-lease of this edit's file \(.*locked/)
  await lock.release()
  const leases = async () =>
    (
      await runCliJson<{ leases: { pattern: string; holder: { sessionId: string | null } }[] }>(['leases'], {
        cwd: p.repo.path,
        env: p.env,
      })
    ).leases.filter((lease) => lease.pattern === 'src/new.ts')
  assert.deepEqual(await leases(), [], 'not recorded while the lock was held')
  // The session's next hook (another denial) finds the kept work and records it after answering.
  const next = await runAgentHook('claude', p.edit, { cwd: p.repo.path, env: p.env })
  assert.equal(next.output?.hookSpecificOutput?.permissionDecision, 'deny', next.stdout)
  assert.deepEqual(
    (await leases()).map((lease) => lease.holder.sessionId),
    [p.edit.session_id],
  )
})

test('a host that never closes a pipe stdin (as Codex and git give) gets "allow, unchecked" at the budget', async () => {
  await using p = await project()
  const fifo = join(p.repo.path, '..', 'stdin.fifo')
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0)
  const writer = openSync(fifo, 'r+')
  const reader = openSync(fifo, 'r')
  try {
    writeSync(writer, '{"session_id":')
    const started = performance.now()
    const child = spawn(process.execPath, [agentHookEntry, 'codex'], {
      cwd: p.repo.path,
      env: p.env as NodeJS.ProcessEnv,
      stdio: [reader, 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    const ms = performance.now() - started
    assert.equal(code, 0)
    assert.match(stderr, /no decision within the 1500 ms time budget/)
    assert.ok(ms >= 1500 && ms < 1500 + 2500, `ended after ${Math.round(ms)} ms`)
  } finally {
    closeSync(reader)
    closeSync(writer)
  }
})

test('a host that never closes a socket stdin (as Claude Code gives) still sees the process end at the budget', async () => {
  await using p = await project()
  const run = await runAgentHook('claude', null, {
    cwd: p.repo.path,
    env: p.env,
    stdin: '{"session_id":',
    keepStdinOpen: true,
  })
  // Node cannot exit while a thread-pool read of the socket blocks, so the process ends by SIGTERM:
  // a non-zero exit, which Claude Code treats as "no decision" and lets the edit through.
  assert.equal(run.signal, 'SIGTERM')
  assert.equal(run.code, 143)
  assert.equal(run.stdout, '')
  assert.match(run.stderr, /no decision within the 1500 ms time budget/)
  assert.ok(run.ms >= 1500 && run.ms < 1500 + 2500, `ended after ${Math.round(run.ms)} ms`)
})
