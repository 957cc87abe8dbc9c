import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { recordShownAlerts, shownAlertIds, shownAlertMemoryMs } from './context-alert-table.ts'

test('each session has its own told alerts; a week later they are forgotten, to be told again', () => {
  const db = openDatabaseFile(join(tmpDir().path, 'sangam.db'))
  recordShownAlerts(db, { vendor: 'claude', sessionId: 's1', ids: ['a', 'b'] }, 1000)
  recordShownAlerts(db, { vendor: 'codex', sessionId: 's1', ids: ['a'] }, 2000)
  assert.deepEqual([...shownAlertIds(db, 'claude', 's1')].sort(), ['a', 'b'])
  assert.deepEqual([...shownAlertIds(db, 'codex', 's1')], ['a'])
  // Telling one again renews it; the others age out.
  recordShownAlerts(db, { vendor: 'claude', sessionId: 's1', ids: ['b'] }, 1001 + shownAlertMemoryMs)
  assert.deepEqual([...shownAlertIds(db, 'claude', 's1')], ['b'])
  assert.deepEqual([...shownAlertIds(db, 'codex', 's1')], ['a'])
  db.close()
})
