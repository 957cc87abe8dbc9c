import assert from 'node:assert/strict'
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { upsertLease } from '../src/leases/store/lease-table.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { git, tmpDir, tmpRepoWith } from './helpers/tmp-git-repo.ts'
import { claudeEdit, codexPatch, runAgentHook, sessionEvent } from './hooks-agent-run.ts'

/**
 * The edit gate as Claude Code and Codex run it: the compiled hook, a real repository, a real
 * SQLite store set up through the CLI, and no daemon anywhere (hooks read the store directly).
 */
const bob = 'bob@example.com'

interface InitJson {
  database: string
}
interface Lease {
  pattern: string
  kind: string
  holder: { human: string; vendor: string | null; sessionId: string | null }
  renewedAt: number
  expiresAt: number
}

async function project() {
  const home = tmpDir()
  const repo = tmpRepoWith({ 'src/a.ts': 'export const a = 1\n', 'src/b.ts': 'export const b = 1\n' })
  const env = isolatedEnv(home.path)
  const init = await runCliJson<InitJson>(['init'], { cwd: repo.path, env })
  const claimAs = (human: string, ...args: string[]) =>
    runCliJson(['claim', ...args], { cwd: repo.path, env: { ...env, SANGAM_USER: human } })
  const leases = async () =>
    (await runCliJson<{ leases: Lease[] }>(['leases'], { cwd: repo.path, env })).leases
  return {
    home,
    repo,
    env,
    database: init.database,
    claimAs,
    leases,
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]()
      await home[Symbol.asyncDispose]()
    },
  }
}

function denial(run: Awaited<ReturnType<typeof runAgentHook>>): string {
  assert.equal(run.code, 0, run.stderr)
  assert.equal(
    run.output?.hookSpecificOutput?.permissionDecision,
    'deny',
    `expected a denial, got: ${run.stdout}`,
  )
  return run.output?.hookSpecificOutput?.permissionDecisionReason ?? ''
}

function allowed(run: Awaited<ReturnType<typeof runAgentHook>>): void {
  assert.equal(run.code, 0, run.stderr)
  assert.notEqual(run.output?.hookSpecificOutput?.permissionDecision, 'deny', run.stdout)
  assert.equal(
    run.output?.hookSpecificOutput?.permissionDecision,
    undefined,
    'never answers allow for the host',
  )
}

test('a Claude edit of a file another human holds is denied, naming holder, reason and expiry', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/a.ts', '-r', 'refactoring the parser', '--ttl', '2h')
  const run = await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, 'src', 'a.ts')), {
    cwd: p.repo.path,
    env: p.env,
  })
  const reason = denial(run)
  assert.match(
    reason,
    /src\/a\.ts is leased to bob@example\.com until (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \((?:in 1 h [56]\d min|in 2 h)\): "refactoring the parser"/,
  )
  assert.equal(readFileSync(join(p.repo.path, 'src', 'a.ts'), 'utf8'), 'export const a = 1\n')
})

test('an allowed edit leaves an auto-lease that another session then runs into', async () => {
  await using p = await project()
  const file = join(p.repo.path, 'src', 'b.ts')
  allowed(
    await runAgentHook('claude', claudeEdit(p.repo.path, file, 'claude-session-1'), {
      cwd: p.repo.path,
      env: p.env,
    }),
  )
  const leases = await p.leases()
  assert.deepEqual(
    leases.map((lease) => [
      lease.pattern,
      lease.kind,
      lease.holder.vendor,
      lease.holder.sessionId,
      lease.holder.human,
    ]),
    [['src/b.ts', 'auto', 'claude', 'claude-session-1', 'dev@example.com']],
  )
  // The same session edits again: renewed, not refused.
  allowed(
    await runAgentHook('claude', claudeEdit(p.repo.path, file, 'claude-session-1'), {
      cwd: p.repo.path,
      env: p.env,
    }),
  )
  const patch =
    '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-export const b = 1\n+export const b = 2\n*** End Patch\n'
  const reason = denial(
    await runAgentHook('codex', codexPatch(p.repo.path, patch), { cwd: p.repo.path, env: p.env }),
  )
  assert.match(reason, /src\/b\.ts is being edited by dev@example\.com's claude session claude-s/)
})

test('a Codex apply_patch is denied when any file it names is held, with paths relative to its cwd', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser work')
  const patch =
    '*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** Update File: a.ts\n@@\n-1\n+2\n*** End Patch\n'
  const run = await runAgentHook('codex', codexPatch(join(p.repo.path, 'src'), patch), {
    cwd: p.repo.path,
    env: p.env,
  })
  assert.match(denial(run), /src\/a\.ts is leased to bob@example\.com/)
  const moved = '*** Begin Patch\n*** Update File: src/b.ts\n*** Move to: src/a.ts\n*** End Patch\n'
  assert.match(
    denial(await runAgentHook('codex', codexPatch(p.repo.path, moved), { cwd: p.repo.path, env: p.env })),
    /src\/a\.ts/,
  )
})

test('an apply_patch header with leading whitespace is gated, as Codex trims it and applies the patch', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser work')
  for (const patch of [
    '*** Begin Patch\n  *** Update File: src/a.ts\n@@\n-1\n+2\n*** End Patch\n',
    '*** Begin Patch\n*** Add File: notes.txt\n+hi\n\t*** Delete File: src/a.ts\n*** End Patch\n',
    "<<'EOF'\n*** Begin Patch\n \t*** Add File: src/a.ts\n+x\n*** End Patch\nEOF\n",
  ]) {
    const run = await runAgentHook('codex', codexPatch(p.repo.path, patch), { cwd: p.repo.path, env: p.env })
    assert.match(denial(run), /src\/a\.ts is leased to bob@example\.com/, patch)
  }
})

test('a hard link to a held file is the held file, whichever name the lease or the edit uses', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser work')
  await p.claimAs(bob, 'lib/**', '-r', 'library work')
  mkdirSync(join(p.repo.path, 'lib'))
  p.repo.write('lib/held.ts', 'export const held = 1\n')
  linkSync(join(p.repo.path, 'src', 'a.ts'), join(p.repo.path, 'copy.ts'))
  linkSync(join(p.repo.path, 'lib', 'held.ts'), join(p.repo.path, 'src', 'held-link.ts'))
  for (const [file, held] of [
    ['copy.ts', /leased to bob.*lease src\/a\.ts/],
    ['src/held-link.ts', /leased to bob/],
  ] as const) {
    const run = await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, file)), {
      cwd: p.repo.path,
      env: p.env,
    })
    assert.match(denial(run), held, file)
  }
  const free = await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, 'src', 'b.ts')), {
    cwd: p.repo.path,
    env: p.env,
  })
  allowed(free)
})

test('a dangling symlink to a held path that does not exist yet is the held path', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/new.ts', '-r', 'new module')
  await p.claimAs(bob, 'gen/**', '-r', 'generated code')
  symlinkSync('new.ts', join(p.repo.path, 'src', 'dangling.ts'))
  symlinkSync(join(p.repo.path, 'gen'), join(p.repo.path, 'out'))
  symlinkSync('../out/deep/x.ts', join(p.repo.path, 'src', 'chain.ts'))
  for (const file of ['src/dangling.ts', 'out/y.ts', 'src/chain.ts']) {
    const run = await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, file)), {
      cwd: p.repo.path,
      env: p.env,
    })
    assert.match(denial(run), /leased to bob/, file)
  }
})

test('NFC and NFD spellings of one name are one path for leases', async () => {
  await using p = await project()
  const composed = 'src/caf\u00e9.ts'
  const decomposed = 'src/cafe\u0301.ts'
  await p.claimAs(bob, composed, '-r', 'menu work')
  await p.claimAs(bob, 'docs/r\u0065\u0301sum\u0065\u0301/**', '-r', 'cv')
  for (const file of [decomposed, composed, 'docs/r\u00e9sum\u00e9/a.md']) {
    const run = await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, file)), {
      cwd: p.repo.path,
      env: p.env,
    })
    assert.match(denial(run), /leased to bob/, JSON.stringify(file))
  }
})

test('a path outside the repository is allowed silently and leaves no lease', async () => {
  await using p = await project()
  await p.claimAs(bob, '**', '-r', 'everything')
  const outside = join(p.home.path, 'elsewhere.ts')
  const run = await runAgentHook('claude', claudeEdit(p.repo.path, outside), { cwd: p.repo.path, env: p.env })
  allowed(run)
  assert.equal(run.stdout, '')
  const climbing = await runAgentHook(
    'codex',
    codexPatch(p.repo.path, '*** Begin Patch\n*** Add File: ../x.ts\n+x\n*** End Patch\n'),
    {
      cwd: p.repo.path,
      env: p.env,
    },
  )
  allowed(climbing)
  assert.equal((await p.leases()).length, 1)
})

test('a symlink to a held file, and a path through .., are the held file', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser work')
  symlinkSync('a.ts', join(p.repo.path, 'src', 'link.ts'))
  symlinkSync(join(p.repo.path, 'src'), join(p.repo.path, 'alias'))
  for (const file of ['src/link.ts', 'alias/a.ts', 'src/../src/./a.ts', 'docs/../src/a.ts']) {
    const run = await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, file)), {
      cwd: p.repo.path,
      env: p.env,
    })
    assert.match(denial(run), /src\/a\.ts is leased to bob/, file)
  }
})

test('a case-only difference still meets the lease (it is the same file on macOS and Windows)', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser work')
  const run = await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, 'SRC', 'A.ts')), {
    cwd: p.repo.path,
    env: p.env,
  })
  assert.match(denial(run), /leased to bob/)
})

test('a lease on a directory glob covers the files below it, and only them', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/auth/**', '-r', 'auth rewrite')
  mkdirSync(join(p.repo.path, 'src', 'auth', 'deep'), { recursive: true })
  const inside = await runAgentHook(
    'claude',
    claudeEdit(p.repo.path, join(p.repo.path, 'src', 'auth', 'deep', 'token.ts')),
    {
      cwd: p.repo.path,
      env: p.env,
    },
  )
  assert.match(
    denial(inside),
    /src\/auth\/deep\/token\.ts is leased to bob@example\.com .*"auth rewrite" \(lease src\/auth\/\*\*/,
  )
  allowed(
    await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, 'src', 'authz.ts')), {
      cwd: p.repo.path,
      env: p.env,
    }),
  )
})

test('an expired lease no longer denies', async () => {
  await using p = await project()
  const db = openDatabaseFile(p.database)
  const past = Date.now() - 60_000
  upsertLease(db, {
    pattern: 'src/a.ts',
    holder: { human: bob, vendor: null, sessionId: null },
    kind: 'claim',
    reason: 'long done',
    token: 1,
    takenAt: past - 3_600_000,
    renewedAt: past - 3_600_000,
    expiresAt: past,
  })
  db.close()
  allowed(
    await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, 'src', 'a.ts')), {
      cwd: p.repo.path,
      env: p.env,
    }),
  )
})

test('with no daemon running, the hook decides from the store alone, from any worktree', async () => {
  await using p = await project()
  await p.claimAs(bob, 'src/a.ts', '-r', 'parser work')
  const worktree = join(p.repo.path, '..', 'lane')
  git(p.repo.path, 'worktree', 'add', '-q', worktree, '-b', 'lane')
  const run = await runAgentHook('claude', claudeEdit(worktree, join(worktree, 'src', 'a.ts')), {
    cwd: worktree,
    env: p.env,
  })
  assert.match(denial(run), /leased to bob/)
})

test('SessionEnd releases the session’s leases, unless the project keeps them', async () => {
  await using p = await project()
  const file = join(p.repo.path, 'src', 'b.ts')
  allowed(
    await runAgentHook('claude', claudeEdit(p.repo.path, file, 'session-x'), {
      cwd: p.repo.path,
      env: p.env,
    }),
  )
  assert.equal((await p.leases()).length, 1)
  await runAgentHook('claude', sessionEvent(p.repo.path, 'SessionEnd', 'session-x'), {
    cwd: p.repo.path,
    env: p.env,
  })
  assert.equal((await p.leases()).length, 0)

  await runCliJson(['leases', '--session-end', 'keep'], { cwd: p.repo.path, env: p.env })
  allowed(
    await runAgentHook('claude', claudeEdit(p.repo.path, file, 'session-y'), {
      cwd: p.repo.path,
      env: p.env,
    }),
  )
  await runAgentHook('claude', sessionEvent(p.repo.path, 'SessionEnd', 'session-y'), {
    cwd: p.repo.path,
    env: p.env,
  })
  assert.equal((await p.leases()).length, 1)
})

test('repeated edits renew the auto-lease at most once a minute, writing nothing in between', async () => {
  await using p = await project()
  const file = join(p.repo.path, 'src', 'b.ts')
  const edit = () =>
    runAgentHook('claude', claudeEdit(p.repo.path, file, 'session-r'), { cwd: p.repo.path, env: p.env })
  allowed(await edit())
  const [first] = await p.leases()
  allowed(await edit())
  const [second] = await p.leases()
  assert.equal(second?.renewedAt, first?.renewedAt, 'no write for an edit right after the last renewal')

  // The same lease, last renewed two minutes ago: the next edit renews it.
  const db = openDatabaseFile(p.database)
  const twoMinutesAgo = Date.now() - 120_000
  db.prepare('UPDATE lease SET renewed_at = ?').run(twoMinutesAgo)
  db.close()
  allowed(await edit())
  const [third] = await p.leases()
  assert.ok((third?.renewedAt ?? 0) > twoMinutesAgo, 'renewed')
  assert.ok((third?.expiresAt ?? 0) > (first?.expiresAt ?? 0), 'with a later expiry')
})

test('an auto-lease leaves the WAL for the next edit instead of checkpointing it away', async () => {
  await using p = await project()
  // No daemon holds the database open here: the hook's connections are the only ones.
  allowed(
    await runAgentHook('claude', claudeEdit(p.repo.path, join(p.repo.path, 'src', 'b.ts')), {
      cwd: p.repo.path,
      env: p.env,
    }),
  )
  assert.ok(existsSync(`${p.database}-wal`), 'the last connection to close was the read-only one')
  assert.equal((await p.leases()).length, 1)
})
