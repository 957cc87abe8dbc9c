import assert from 'node:assert/strict'
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { bob, claude, codex } from '../../../test/helpers/sample-lease.ts'
import { tmpDir, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { tmpStore } from '../../../test/helpers/tmp-store.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { openConnection } from '../../store/connection.ts'
import { readLeases } from '../store/lease-table.ts'
import { checkEdit, checkEditReadOnly } from './edit.ts'
import { LocalLeaseArbiter } from './local-arbiter.ts'

const start = Date.parse('2026-11-30T10:00:00Z')

test('an edit through a symlink or with .. meets the lease on the real file', async () => {
  await using repo = tmpGitRepo()
  await using data = tmpDir()
  repo.write('src/real.ts', '')
  symlinkSync(join(repo.path, 'src/real.ts'), join(repo.path, 'link.ts'))
  const db = openDatabaseFile(join(data.path, 'sangam.db'))
  try {
    const arbiter = new LocalLeaseArbiter(db, new ManualClock(start))
    await arbiter.claim({ actor: bob, patterns: ['src/real.ts'], reason: 'bugfix', ttlMs: null })
    const worktrees = [repo.path]
    for (const file of [join(repo.path, 'link.ts'), join(repo.path, 'lib/../src/real.ts'), 'SRC/Real.ts']) {
      const outcome = await checkEdit(arbiter, { actor: codex, file, cwd: repo.path, worktrees })
      assert.equal(outcome.decision, 'deny', file)
      assert.match(outcome.reason, /bob@x\.dev .*"bugfix"/)
    }
  } finally {
    db.close()
  }
})

test('a file outside the repository is allowed and never leased, even under a lease on everything', async () => {
  await using repo = tmpGitRepo()
  await using data = tmpDir()
  const db = openDatabaseFile(join(data.path, 'sangam.db'))
  try {
    const arbiter = new LocalLeaseArbiter(db, new ManualClock(start))
    await arbiter.claim({ actor: bob, patterns: ['**'], reason: 'freeze', ttlMs: null })
    const outcome = await checkEdit(arbiter, {
      actor: codex,
      file: '/tmp/notes.md',
      cwd: repo.path,
      worktrees: [repo.path],
    })
    assert.deepEqual([outcome.decision, outcome.path, outcome.autoLease], ['allow', null, null])
    assert.equal(readLeases(db, start).length, 1)
  } finally {
    db.close()
  }
})

test('the read-only check decides like the writing one and records nothing', async () => {
  await using repo = tmpGitRepo()
  await using store = tmpStore()
  const writer = store.open()
  const reader = store.open({ readonly: true })
  const clock = new ManualClock(start)
  const worktrees = [repo.path]
  await checkEdit(new LocalLeaseArbiter(writer, clock), {
    actor: claude,
    file: 'src/a.ts',
    cwd: repo.path,
    worktrees,
  })
  const denied = checkEditReadOnly(
    reader,
    { actor: codex, file: 'src/a.ts', cwd: repo.path, worktrees },
    clock,
  )
  assert.equal(denied.decision, 'deny')
  const free = checkEditReadOnly(reader, { actor: codex, file: 'src/b.ts', cwd: repo.path, worktrees }, clock)
  assert.deepEqual([free.decision, free.autoLease], ['allow', null])
  assert.equal(readLeases(writer, start).length, 1)
})

test('a read-only replica from before leases existed allows every edit', async () => {
  await using repo = tmpGitRepo()
  await using data = tmpDir()
  const file = join(data.path, 'old.db')
  const old = openConnection(file, { timeoutMs: 5000 })
  old.exec('CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL); PRAGMA user_version = 1')
  old.close()
  const reader = openDatabaseFile(file, { readonly: true })
  try {
    const check = { actor: codex, file: 'src/a.ts', cwd: repo.path, worktrees: [repo.path] }
    assert.equal(checkEditReadOnly(reader, check, new ManualClock(start)).decision, 'allow')
  } finally {
    reader.close()
  }
})
