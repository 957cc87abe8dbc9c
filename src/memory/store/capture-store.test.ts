import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { tmpStore } from '../../../test/helpers/tmp-store.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { CaptureStore } from './capture-store.ts'
import { ensureSourceFile, moveSourceFile } from './source-file-table.ts'

test('the file names of source rows are known, including rows another connection adds later', async () => {
  await using storeFile = tmpStore()
  const db = storeFile.open()
  const other = storeFile.open()
  const store = new CaptureStore(db)
  ensureSourceFile(db, '/home/dev/.codex/sessions/2026/11/01/rollout-a.jsonl', 'codex', 1)
  assert.equal(store.mayHaveFileNamed('rollout-a.jsonl'), true)
  assert.equal(store.mayHaveFileNamed('rollout-b.jsonl'), false)

  const b = ensureSourceFile(other, '/home/dev/.codex/sessions/2026/11/01/rollout-b.jsonl', 'codex', 2)
  moveSourceFile(other, b.id, '/home/dev/.codex/archived_sessions/rollout-b.jsonl', 3)
  assert.equal(store.mayHaveFileNamed('rollout-b.jsonl'), true)
  assert.equal(store.mayHaveFileNamed('sessions'), false, 'a directory name is no file name')
})

test('after a rolled-back bulk, rows that reuse its ids are known by their own names', async () => {
  await using dir = tmpDir()
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  try {
    const store = new CaptureStore(db)
    store.beginBulk()
    const undone = ensureSourceFile(db, '/home/dev/.claude/projects/-p/undone.jsonl', 'claude', 1)
    assert.equal(store.mayHaveFileNamed('undone.jsonl'), true)
    store.rollbackBulk()

    const kept = ensureSourceFile(db, '/home/dev/.claude/projects/-p/kept.jsonl', 'claude', 2)
    assert.equal(kept.id, undone.id, 'SQLite gives the id out again')
    assert.equal(store.mayHaveFileNamed('kept.jsonl'), true)
    assert.equal(store.mayHaveFileNamed('undone.jsonl'), false)
  } finally {
    db.close()
  }
})
