import assert from 'node:assert/strict'
import { rmSync, writeFileSync } from 'node:fs'
import { test } from 'node:test'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { tmpGitRepo } from '../../../test/helpers/tmp-git-repo.ts'
import { daemonFileBeside } from '../../config/data-paths.ts'
import { briefSections } from '../../project/services/brief-sections.ts'
import { ManualClock } from '../../shared/clock.ts'
import { ensureSourceFile } from '../store/source-file-table.ts'
import { MemoryBrief } from './memory-brief.ts'

const start = Date.parse('2026-11-02T10:00:00Z')
const human = { human: 'asha@example.com', vendor: null, sessionId: null }

test('without a running daemon the brief opens with a capture warning that says how old the memory is', async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  const clock = new ManualClock(start)
  const never = new MemoryBrief(memory.db, clock, briefSections).brief({ reader: human, cwd: repo.path })
  assert.equal(never.sections[0]?.key, 'capture')
  assert.match(never.sections[0]?.lines[0] ?? '', /not running here and nothing has been captured yet/)
  assert.match(never.text, /^sangam brief[^\n]*\n\nCapture:\n- `sangam up` is not running/)

  ensureSourceFile(memory.db, '/transcripts/a.jsonl', 'claude', start - 3 * 60 * 60 * 1000)
  const stale = new MemoryBrief(memory.db, clock, briefSections).brief({ reader: human, cwd: repo.path })
  assert.match(stale.sections[0]?.lines[0] ?? '', /stops at the last capture, 3 h ago$/)
})

test('while a daemon runs for the project there is no capture section', async () => {
  await using memory = memoryFixture()
  await using repo = tmpGitRepo()
  const file = daemonFileBeside(memory.db.name)
  writeFileSync(
    file,
    JSON.stringify({ pid: process.pid, version: '0.1.0', startedAt: new Date(start).toISOString() }),
  )
  try {
    const brief = new MemoryBrief(memory.db, new ManualClock(start), briefSections).brief({
      reader: human,
      cwd: repo.path,
    })
    assert.equal(
      brief.sections.some((section) => section.key === 'capture'),
      false,
    )
  } finally {
    rmSync(file)
  }
  const after = new MemoryBrief(memory.db, new ManualClock(start), briefSections).brief({
    reader: human,
    cwd: repo.path,
  })
  assert.equal(after.sections[0]?.key, 'capture', 'no discovery file means no daemon again')
})
