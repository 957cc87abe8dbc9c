import assert from 'node:assert/strict'
import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { replaceOverlaps } from '../src/room/store/overlap-table.ts'
import { writeWorktreeState } from '../src/room/store/worktree-state-table.ts'
import { readSetting, writeSetting } from '../src/store/project-table.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { claudeEdit, codexPatch, runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/**
 * The room's house rules in the edit gate, as Claude Code and Codex run it: the compiled hook, a
 * real store, presence written by real SessionStart hooks, overlap rows inserted as the daemon
 * would (the daemon that computes them is not ours to run here).
 */
const codexSession = '01a2264c-aff5-7b22-ace8-554acdb41e6a'
const claudeSession = 'c1a0de00-0000-4000-8000-000000000001'

async function project() {
  const home = tmpDir()
  const repo = tmpRepoWith({ 'src/a.ts': 'export const a = 1\n' })
  const env = isolatedEnv(home.path)
  const init = await runCliJson<{ database: string }>(['init', '--no-mcp'], { cwd: repo.path, env })
  const rule = (name: string, rung: string) =>
    runCliJson(['rules', 'set', name, rung], { cwd: repo.path, env })
  const hook = (host: 'claude' | 'codex', payload: unknown) =>
    runAgentHook(host, payload, { cwd: repo.path, env })
  const claudeWrite = (file = 'src/a.ts') =>
    hook('claude', claudeEdit(repo.path, join(repo.path, file), claudeSession))
  return {
    repo,
    env,
    database: init.database,
    rule,
    hook,
    claudeWrite,
    codexArrives: () => hook('codex', sessionEvent(repo.path, 'SessionStart', codexSession)),
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

type Run = Awaited<ReturnType<typeof runAgentHook>>
const decision = (run: Run) => run.output?.hookSpecificOutput?.permissionDecision
const reason = (run: Run) => run.output?.hookSpecificOutput?.permissionDecisionReason ?? ''
const context = (run: Run) => run.output?.hookSpecificOutput?.additionalContext ?? ''

test('one-actor-per-worktree: denied at refuse naming the other session, warned at warn, silent at off', async () => {
  await using p = await project()
  // Alone in the worktree: nothing to say at any rung.
  await p.rule('one-actor-per-worktree', 'refuse')
  const alone = await p.claudeWrite()
  assert.equal(decision(alone), undefined, alone.stdout)
  assert.equal(context(alone), '')

  await p.codexArrives()
  const denied = await p.claudeWrite()
  assert.equal(denied.code, 0, denied.stderr)
  assert.equal(decision(denied), 'deny', denied.stdout)
  assert.match(reason(denied), /one-actor-per-worktree is at refuse/)
  assert.match(reason(denied), new RegExp(`@codex-repo \\(codex session ${codexSession}, online\\)`))
  // The session never refuses itself: Codex, the one that is there, edits freely.
  const own = await p.hook(
    'codex',
    codexPatch(p.repo.path, '*** Begin Patch\n*** Add File: src/c.ts\n+x\n*** End Patch\n', codexSession),
  )
  assert.equal(decision(own), undefined, own.stdout)

  await p.rule('one-actor-per-worktree', 'warn')
  const warned = await p.claudeWrite('src/b.ts')
  assert.equal(decision(warned), undefined, warned.stdout)
  assert.match(
    context(warned),
    /sangam: one-actor-per-worktree \(warn\): @codex-repo \(codex session .*\) is also active/,
  )

  await p.rule('one-actor-per-worktree', 'off')
  const off = await p.claudeWrite('src/d.ts')
  assert.equal(decision(off), undefined)
  assert.doesNotMatch(context(off), /one-actor-per-worktree/)

  // Gone: once Codex's session ends, refuse denies nothing.
  await p.rule('one-actor-per-worktree', 'refuse')
  await p.hook('codex', sessionEvent(p.repo.path, 'SessionEnd', codexSession))
  const after = await p.claudeWrite('src/e.ts')
  assert.equal(decision(after), undefined, after.stdout)
})

test('file-overlap: an overlap row for the edited path denies at refuse, naming the other worktree and the conflict', async () => {
  await using p = await project()
  const worktree = realpathSync(p.repo.path)
  const db = openDatabaseFile(p.database)
  try {
    db.transaction(() =>
      replaceOverlaps(db, [
        {
          worktree,
          path: 'src/a.ts',
          otherWorktree: '/work/wt/other',
          otherBranch: 'h/other',
          conflicted: true,
          computedAt: 1,
        },
      ]),
    )()
  } finally {
    db.close()
  }
  const warned = await p.claudeWrite()
  assert.equal(decision(warned), undefined, warned.stdout)
  assert.match(
    context(warned),
    /file-overlap \(warn\): src\/a\.ts is also changed in \/work\/wt\/other \(branch h\/other\); merging the two would conflict/,
  )

  await p.rule('file-overlap', 'refuse')
  const denied = await p.claudeWrite()
  assert.equal(decision(denied), 'deny', denied.stdout)
  assert.match(
    reason(denied),
    /file-overlap is at refuse: src\/a\.ts is also changed in \/work\/wt\/other \(branch h\/other\)/,
  )
  // Another path of the same worktree has no overlap row.
  const other = await p.claudeWrite('src/free.ts')
  assert.equal(decision(other), undefined, other.stdout)
})

test("file-overlap with another machine's worktree names it by its #target and machine", async () => {
  await using p = await project()
  const worktree = realpathSync(p.repo.path)
  const db = openDatabaseFile(p.database)
  try {
    db.transaction(() => {
      writeWorktreeState(db, {
        machine: 'm_0b0b0b0b0b0b0b0b',
        path: '/home/bob/app-lane',
        status: 'present',
        target: 'app-lane',
        branch: 'lane/bob',
        head: 'a'.repeat(40),
        base: 'b'.repeat(40),
        lastCommitAt: 1,
        uncommitted: 1,
        changes: [{ path: 'src/a.ts', ranges: [[1, 1]] }],
        truncated: false,
        updatedAt: 1,
        change: 1,
        digest: 'd',
      })
      replaceOverlaps(db, [
        {
          worktree,
          path: 'src/a.ts',
          otherWorktree: 'm_0b0b0b0b0b0b0b0b:/home/bob/app-lane',
          otherBranch: 'lane/bob',
          conflicted: true,
          computedAt: 1,
        },
      ])
    })()
  } finally {
    db.close()
  }
  await p.rule('file-overlap', 'refuse')
  const denied = await p.claudeWrite()
  assert.equal(decision(denied), 'deny', denied.stdout)
  assert.match(
    reason(denied),
    /src\/a\.ts is also changed in #app-lane \(\/home\/bob\/app-lane on machine m_0b0b0b0b0b0b0b0b\) \(branch lane\/bob\)/,
  )
})

test('a store without the room tables, or with an unreadable room group, fails the rules open and keeps leases', async () => {
  await using p = await project()
  await runCliJson(['claim', 'src/a.ts', '-r', 'parser work'], {
    cwd: p.repo.path,
    env: { ...p.env, SANGAM_USER: 'bob@example.com' },
  })
  const db = openDatabaseFile(p.database)
  try {
    writeSetting(db, 'room', 'garbage')
    assert.equal(readSetting(db, 'room'), 'garbage')
  } finally {
    db.close()
  }
  await p.codexArrives()
  // Unreadable room settings take the defaults (warn): a note, and the lease still denies.
  const leased = await p.claudeWrite()
  assert.equal(decision(leased), 'deny', leased.stdout)
  assert.match(reason(leased), /bob@example\.com/)
  const noted = await p.claudeWrite('src/b.ts')
  assert.match(context(noted), /one-actor-per-worktree \(warn\)/)

  const broken = openDatabaseFile(p.database)
  try {
    broken.exec('DROP TABLE presence')
  } finally {
    broken.close()
  }
  const unchecked = await p.claudeWrite('src/c.ts')
  assert.equal(unchecked.code, 0, unchecked.stderr)
  assert.equal(decision(unchecked), undefined, unchecked.stdout)
  assert.match(
    context(unchecked),
    /the room's house rules were not checked \(.*presence.*\); the edit was allowed by them/,
  )
  const stillLeased = await p.claudeWrite()
  assert.equal(decision(stillLeased), 'deny', stillLeased.stdout)
})

test('SessionStart carries one line per rule at warn or refuse, refusals first, and none below warn', async () => {
  await using p = await project()
  await p.rule('one-actor-per-worktree', 'refuse')
  await p.rule('file-overlap', 'advise')
  await p.rule('stale-worktrees', 'warn')
  const run = await p.hook('claude', sessionEvent(p.repo.path, 'SessionStart', claudeSession))
  assert.equal(run.code, 0, run.stderr)
  const text = context(run)
  assert.ok(text.length <= 2000, `${text.length} characters`)
  const rules = text.split('\n').filter((line) => /^- [a-z-]+ \((warn|refuse)\): /.test(line))
  assert.deepEqual(rules, [
    '- one-actor-per-worktree (refuse): an edit while another agent session is active in your worktree is denied',
    "- lease-collision (refuse): an edit of a file under another session's auto-lease is denied",
    '- stale-worktrees (warn): a worktree with no active agent and no recent commit is listed in alerts',
  ])
  assert.doesNotMatch(text, /file-overlap/)
  assert.match(text, /House rules in force/)
})
