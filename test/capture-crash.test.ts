import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
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
  const { durationMs: insideMs } = await runCliJson<{ durationMs: number }>(['index'], {
    cwd: w.repo.path,
    env: reference,
    timeoutMs: 600_000,
  })
  const startMs = Math.max(0, Date.now() - referenceStartedAt - insideMs)
  const total = snapshot(reference.SANGAM_HOME ?? '', projectId).events.length

  // Each kill lands at a random point of what is left to do, at the pace the reference run showed.
  // The machine's pace drifts with its load: a run that finishes before its kill starts the
  // interrupted side over with shorter delays, and a kill that landed before any commit lengthens them.
  const kills: string[] = []
  let midway = 0
  let stored = 0
  let pace = 1
  for (let round = 0; round < 16 && midway < 3; round++) {
    const child = spawnCli(['index'], { cwd: w.repo.path, env: w.env })
    const exited = new Promise<string>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? String(code))),
    )
    const left = (1 - stored / total) * insideMs
    const delay = Math.round(pace * (startMs + left * (0.2 + 0.6 * Math.random())))
    await Promise.race([sleep(delay), exited])
    child.kill('SIGKILL')
    if ((await exited) !== 'SIGKILL') {
      kills.push(`${delay} ms (finished first; starting over)`)
      rmSync(join(w.home.path, '.sangam'), { recursive: true, force: true })
      await runCliJson(['init'], { cwd: w.repo.path, env: w.env })
      ;[midway, stored, pace] = [0, 0, pace * 0.6]
      continue
    }
    const now = w.events().length
    kills.push(`${delay} ms (${now}/${total} events)`)
    if (now === stored) pace *= 1.3
    else if (now < total) midway++
    stored = now
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
