import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { openConnection } from '../src/store/connection.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { tmpDir, tmpGitRepo } from './helpers/tmp-git-repo.ts'
import { claudeEdit, runAgentHook } from './hooks-agent-run.ts'

/**
 * The edit hook matches globs by the expression compiled when the lease was written (migration 4,
 * leases/store/lease-regex.ts). Leases written before that have none, and a replica the new hook reads
 * may not even be migrated yet (the hook opens it read-only): both must still be enforced.
 */
async function projectWithGlobClaim() {
  const home = tmpDir()
  const repo = tmpGitRepo()
  const env = isolatedEnv(home.path)
  const init = await runCliJson<{ database: string }>(['init'], { cwd: repo.path, env })
  await runCliJson(['claim', 'Docs/**/*.md', '-r', 'rewriting the docs'], {
    cwd: repo.path,
    env: { ...env, SANGAM_USER: 'bob@example.com' },
  })
  const edit = (file: string) =>
    runAgentHook('claude', claudeEdit(repo.path, join(repo.path, file)), { cwd: repo.path, env })
  return {
    database: init.database,
    edit,
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

/** `deny`, or `allow` when the hook lets the host's own permission flow decide (it never says allow). */
function decision(run: Awaited<ReturnType<typeof runAgentHook>>): string {
  assert.equal(run.code, 0, run.stderr)
  assert.doesNotMatch(run.stderr, /unchecked|fail/i)
  return run.output?.hookSpecificOutput?.permissionDecision ?? 'allow'
}

test('a glob claim stored with its expression denies and allows as picomatch would', async () => {
  await using p = await projectWithGlobClaim()
  assert.equal(decision(await p.edit('docs/guide/INTRO.md')), 'deny')
  assert.equal(decision(await p.edit('docs/guide/intro.ts')), 'allow')
})

test('a glob claim written before patterns were stored is still enforced', async () => {
  await using p = await projectWithGlobClaim()
  const db = openConnection(p.database, { timeoutMs: 5000 })
  db.exec('UPDATE lease SET pattern_regex = NULL')
  db.close()
  assert.equal(decision(await p.edit('docs/guide/INTRO.md')), 'deny')
  assert.equal(decision(await p.edit('docs/guide/intro.ts')), 'allow')
})

test('a replica not yet migrated to stored patterns is read as it is, and left unmigrated by a denial', async () => {
  await using p = await projectWithGlobClaim()
  // The store's own open would migrate it again, so the older schema is made with SQLite directly.
  const older = openConnection(p.database, { timeoutMs: 5000 })
  older.exec('ALTER TABLE lease DROP COLUMN pattern_regex')
  older.pragma('user_version = 3')
  older.close()
  assert.equal(decision(await p.edit('docs/INTRO.md')), 'deny')
  const after = openConnection(p.database, { readOnly: true, timeoutMs: 5000 })
  try {
    assert.equal(after.pragma('user_version', { simple: true }), 3)
  } finally {
    after.close()
  }
})
