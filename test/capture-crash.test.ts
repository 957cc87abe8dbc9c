import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { databasePath } from '../src/config/data-paths.ts'
import { countEvents, eventSelect, toStoredEvent } from '../src/memory/store/event-table.ts'
import { listActiveSessions } from '../src/memory/store/session-table.ts'
import { listSourceFiles } from '../src/memory/store/source-file-table.ts'
import { openDatabaseFile } from '../src/project/store/project-database.ts'
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

/** Counts the stored events every few milliseconds, through one read-only connection. */
function eventCounter(path: string): { count(): number; [Symbol.dispose](): void } {
  const db = openDatabaseFile(path, { readonly: true })
  return { count: () => countEvents(db), [Symbol.dispose]: () => db.close() }
}

test('kill -9 at random moments of a backfill, then a restart, stores exactly what an uninterrupted run stores', async (t) => {
  await using w = await captureWorld()
  // Over three of capture's 32 MiB transaction groups: at least three commits to land kills between,
  // however fast the machine (its one-second groups only add commits when it is slow).
  const written = replicateCorpus({ home: w.home.path, cwd: w.repo.path, targetBytes: 100 * 1024 * 1024 })
  assert.ok(written.files.length > 100)

  const reference = { ...w.env, SANGAM_HOME: join(w.home.path, 'reference') }
  const { projectId } = await runCliJson<{ projectId: string }>(['init'], {
    cwd: w.repo.path,
    env: reference,
  })
  await runCliJson(['index'], { cwd: w.repo.path, env: reference, timeoutMs: 600_000 })
  const total = snapshot(reference.SANGAM_HOME ?? '', projectId).events.length
  const database = databasePath(join(w.home.path, '.sangam'), projectId)

  // A kill is aimed by progress, not by time, so a loaded machine cannot make every kill land
  // before the first commit or after the last: each round picks a random share of the first half
  // of what is left, waits until the database holds at least that much, then kills within half the
  // interval between the last two commits, so kills land inside batches as well as between them.
  const kills: string[] = []
  let midway = 0
  for (let round = 0; round < 12 && midway < 3; round++) {
    using counter = eventCounter(database)
    const stored = counter.count()
    const target = stored + Math.max(1, Math.floor((total - stored) * (0.05 + 0.45 * Math.random())))
    const child = spawnCli(['index'], { cwd: w.repo.path, env: w.env })
    let exitedWith: string | undefined
    const exited = new Promise<string>((resolve) =>
      child.on('exit', (code, signal) => {
        exitedWith = signal ?? String(code)
        resolve(exitedWith)
      }),
    )
    // The first commit of a round also pays the process start, so it does not set the interval.
    let [seen, interval] = [stored, 100]
    let committedAt: number | undefined
    while (exitedWith === undefined && seen < target) {
      await sleep(5)
      const now = counter.count()
      if (now === seen) continue
      if (committedAt !== undefined) interval = Math.max(20, Date.now() - committedAt)
      ;[seen, committedAt] = [now, Date.now()]
    }
    const extra = Math.round((interval / 2) * Math.random())
    await Promise.race([sleep(extra), exited])
    child.kill('SIGKILL')
    const how = await exited
    const now = counter.count()
    kills.push(
      `${how === 'SIGKILL' ? 'killed' : `exited ${how}`} ${extra} ms after ${seen} (${now}/${total} events)`,
    )
    if (how === 'SIGKILL' && now > stored && now < total) midway++
    if (now === total && midway < 2) {
      // The run got to the end before enough kills landed: start the interrupted side over.
      rmSync(join(w.home.path, '.sangam'), { recursive: true, force: true })
      await runCliJson(['init'], { cwd: w.repo.path, env: w.env })
      midway = 0
    } else if (now === total) break
  }
  t.diagnostic(kills.join(', '))
  assert.ok(midway >= 2, `too few kills landed mid-backfill: ${kills.join(', ')}`)
  await runCliJson(['index'], { cwd: w.repo.path, env: w.env, timeoutMs: 600_000 })

  const interrupted = snapshot(join(w.home.path, '.sangam'), projectId)
  const uninterrupted = snapshot(reference.SANGAM_HOME, projectId)
  const context = kills.join(', ')
  assert.ok(uninterrupted.events.length > 1000, context)
  assert.deepEqual(interrupted.events, uninterrupted.events, context)
  assert.deepEqual(interrupted.files, uninterrupted.files, context)
  assert.deepEqual(interrupted.sessions, uninterrupted.sessions, context)
})
