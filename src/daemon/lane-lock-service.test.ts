import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import type { LockKept } from '../lanes/services/lock-keeper.ts'
import { openDatabaseFile } from '../project/store/project-database.ts'
import { createLogger } from '../shared/logger.ts'
import { LaneLockService } from './lane-lock-service.ts'

test('the lane-lock service looks again after a failed look, says each kind of failure once, and stops', async () => {
  await using data = tmpDir()
  const file = join(data.path, 'sangam.db')
  openDatabaseFile(file).close()
  const lines: string[] = []
  const log = createLogger({ write: (text: string) => lines.push(text) }, 'warn')
  const answers: (LockKept | Error)[] = [
    new Error('no main branch'),
    new Error('no main branch'),
    { lane: 'a', renewed: true, why: 'agent alive' },
  ]
  const seen: (LockKept | null)[] = []
  const service = new LaneLockService({
    openDb: () => openDatabaseFile(file),
    keep: async () => {
      const next = answers.shift()
      if (next === undefined) {
        void service.stop()
        return null
      }
      if (next instanceof Error) throw next
      return next
    },
    log,
    intervalMs: 1,
    onKept: (kept) => seen.push(kept),
  })
  await service.run()
  assert.deepEqual(seen, [{ lane: 'a', renewed: true, why: 'agent alive' }, null])
  assert.equal(lines.filter((line) => line.includes('no main branch')).length, 1)
})
