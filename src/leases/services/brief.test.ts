import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { bob, claude, codex } from '../../../test/helpers/sample-lease.ts'
import { tmpDir, tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { MemoryBrief } from '../../memory/services/memory-brief.ts'
import { briefSections } from '../../project/services/brief-sections.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { LocalLeaseArbiter } from './local-arbiter.ts'
import { writeLeaseSettings } from './settings.ts'

const start = Date.parse('2026-11-30T10:00:00Z')

test("every session's brief carries others' leases, forced releases and (under warn) collisions, once", async () => {
  await using repo = tmpGitRepo()
  await using data = tmpDir()
  const db = openDatabaseFile(join(data.path, 'sangam.db'))
  try {
    const clock = new ManualClock(start)
    const arbiter = new LocalLeaseArbiter(db, clock)
    writeLeaseSettings(db, { autoLease: 'warn' })
    await arbiter.claim({ actor: bob, patterns: ['src/auth/**'], reason: 'auth rewrite', ttlMs: null })
    await arbiter.claim({ actor: codex, patterns: ['docs/**'], reason: 'docs pass', ttlMs: null })
    await arbiter.release({ actor: bob, patterns: ['docs/**'], forceReason: 'codex session is gone' })
    await arbiter.recordEdit(claude, ['src/a.ts'])
    await arbiter.recordEdit(codex, ['src/a.ts'])

    const briefs = new MemoryBrief(db, clock, briefSections)
    const first = briefs.brief({ reader: codex, cwd: repo.path })
    const leases = first.sections.find((section) => section.key === 'leases')
    assert.deepEqual(leases?.lines, [
      'your lease on docs/** was released by bob@x.dev: "codex session is gone"',
      'src/auth/**: bob@x.dev until 12:00 UTC (in 2 h): "auth rewrite"',
      "src/a.ts: being edited by alice@x.dev's claude session c-1",
      "alice@x.dev's codex session x-1 edited src/a.ts while alice@x.dev's claude session c-1 was editing it",
    ])
    assert.match(first.text, /Leases \(edits to files others hold are refused\)/)

    clock.advance(60_000)
    const second = briefs.brief({ reader: codex, cwd: repo.path })
    assert.equal(
      second.sections.find((section) => section.key === 'leases')?.lines.length,
      2,
      'events are told once',
    )
  } finally {
    db.close()
  }
})
