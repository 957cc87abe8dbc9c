import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { databasePath, openDatabaseFile } from '../src/store/database.ts'
import { eventSelect, toStoredEvent } from '../src/store/event-table.ts'
import { listActiveSessions } from '../src/store/session-table.ts'
import { listSourceFiles } from '../src/store/source-file-table.ts'
import { replicateCorpus } from './helpers/capture-corpus.ts'
import { captureWorld } from './helpers/capture-transcripts.ts'
import { runCliJson, spawnCli } from './helpers/run-cli.ts'

/** Everything capture stored, in a form two databases can be compared by. */
function snapshot(
  sangamHome: string,
  projectId: string,
): { events: string[]; files: string[]; sessions: string[] } {
  const db = openDatabaseFile(databasePath(sangamHome, projectId), { readonly: true })
  try {
    const events = (db.prepare(`${eventSelect} ORDER BY e.id`).all() as unknown[])
      .map(toStoredEvent)
      .map((event) => `${event.id}\t${event.kind}\t${event.sessionId}\t${event.fullSize}\t${event.text}`)
    const files = listSourceFiles(db).map((file) =>
      [
        file.path,
        file.offset,
        file.fingerprint,
        file.lines,
        file.captured,
        file.skipped,
        file.unknown,
        file.unparseable,
        file.events,
      ].join(' '),
    )
    const sessions = listActiveSessions(db, 0, 100_000)
      .map((session) => `${session.id} ${session.events} ${session.firstAt} ${session.lastAt}`)
      .sort()
    return { events, files, sessions }
  } finally {
    db.close()
  }
}

test('kill -9 at random moments of a backfill, then a restart, stores exactly what an uninterrupted run stores', async (t) => {
  await using w = await captureWorld()
  const written = replicateCorpus({ home: w.home.path, cwd: w.repo.path, targetBytes: 40 * 1024 * 1024 })
  assert.ok(written.files.length > 100)

  const reference = { ...w.env, SANGAM_HOME: join(w.home.path, 'reference') }
  const { projectId } = await runCliJson<{ projectId: string }>(['init'], {
    cwd: w.repo.path,
    env: reference,
  })
  const referenceStartedAt = Date.now()
  await runCliJson(['index'], { cwd: w.repo.path, env: reference, timeoutMs: 600_000 })
  // Kills land between 30 % and 80 % of an uninterrupted run, which is the machine's own pace.
  const uninterruptedMs = Date.now() - referenceStartedAt

  const total = snapshot(reference.SANGAM_HOME ?? '', projectId).events.length
  const kills: string[] = []
  let midway = 0
  for (let round = 0; round < 6; round++) {
    const child = spawnCli(['index'], { cwd: w.repo.path, env: w.env })
    const exited = new Promise<string>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? String(code))),
    )
    const delay = Math.round(uninterruptedMs * (0.3 + 0.5 * Math.random()))
    await Promise.race([sleep(delay), exited])
    child.kill('SIGKILL')
    if ((await exited) !== 'SIGKILL') continue
    const stored = w.events().length
    kills.push(`${delay} ms (${stored}/${total} events)`)
    if (stored > 0 && stored < total) midway++
  }
  t.diagnostic(`killed after ${kills.join(', ')}`)
  assert.ok(midway >= 2, `too few kills landed mid-backfill: ${kills.join(', ')}`)
  await runCliJson(['index'], { cwd: w.repo.path, env: w.env, timeoutMs: 600_000 })

  const interrupted = snapshot(join(w.home.path, '.sangam'), projectId)
  const uninterrupted = snapshot(reference.SANGAM_HOME, projectId)
  const context = `killed after ${kills.join(', ')}`
  assert.ok(uninterrupted.events.length > 1000, context)
  assert.deepEqual(interrupted.events, uninterrupted.events, context)
  assert.deepEqual(interrupted.files, uninterrupted.files, context)
  assert.deepEqual(interrupted.sessions, uninterrupted.sessions, context)
})
