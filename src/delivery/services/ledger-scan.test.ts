import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../../test/helpers/tmp-git-repo.ts'
import { openDatabaseFile } from '../../project/store/project-database.ts'
import { ManualClock } from '../../shared/clock.ts'
import { insertTurn, turnById, updateTurn } from '../store/delivery-turn-table.ts'
import { sweepTurns } from './ledger-scan.ts'

/**
 * A new session's CLI may name it only after the launch stopped watching its log (opencode, slow
 * to start): the sweep that finds its process gone gives the turn the id its log names by then.
 */
test('a start turn whose CLI named its session late takes that id when the sweep ends it', async () => {
  await using dir = tmpDir()
  const clock = new ManualClock(Date.parse('2026-12-04T20:00:00Z'))
  const db = openDatabaseFile(join(dir.path, 'sangam.db'), { clock })
  try {
    const gone = spawnSync(process.execPath, ['-e', '']).pid ?? 0
    const started = (vendor: string, log: string): number => {
      const id = insertTurn(
        db,
        {
          vendor,
          sessionId: `new:${vendor}-placeholder`,
          channel: 'new',
          cause: 'human',
          why: 'start',
          messages: [],
          state: 'starting',
          ownerPid: process.pid,
          ownerStart: null,
          worktree: dir.path,
        },
        clock.now(),
      )
      assert.ok(id !== null)
      const logFile = join(dir.path, `${vendor}.log`)
      writeFileSync(logFile, log)
      updateTurn(db, id, ['starting'], { state: 'running', pid: gone, pidStart: 'gone', logFile })
      return id
    }
    const named = started(
      'opencode',
      '{"type":"step_start","timestamp":1,"sessionID":"ses_0a1b2c3d4e5fAbCdEfGhIjKlMn","part":{}}\n',
    )
    const silent = started('codex', 'error: no model\n')
    sweepTurns(db, clock, process.pid)
    assert.deepEqual(
      [turnById(db, named)?.state, turnById(db, named)?.sessionId],
      ['ended', 'ses_0a1b2c3d4e5fAbCdEfGhIjKlMn'],
    )
    assert.deepEqual(
      [turnById(db, silent)?.state, turnById(db, silent)?.sessionId],
      ['ended', 'new:codex-placeholder'],
      'a log that names no session leaves the placeholder',
    )
  } finally {
    db.close()
  }
})
