import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Capture, type CaptureOptions } from '../../src/memory/services/capture.ts'
import type { CaptureScope } from '../../src/memory/services/capture-scope.ts'
import { eventSelect, type StoredEvent, toStoredEvent } from '../../src/memory/store/event-table.ts'
import { getSourceFile, type SourceFileRow } from '../../src/memory/store/source-file-table.ts'
import { openDatabaseFile } from '../../src/project/store/project-database.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { silentLogger } from '../../src/shared/logger.ts'
import type { Db } from '../../src/store/database.ts'
import { toyReader } from './capture-toy-reader.ts'
import { type TmpDir, tmpDir } from './tmp-git-repo.ts'

/** Sessions whose cwd is under /work/widget belong to the project of these tests. */
export const projectScope: CaptureScope = {
  since: null,
  contains: (cwd) => cwd === '/work/widget' || cwd.startsWith('/work/widget/'),
}

export interface CaptureFixture extends AsyncDisposable {
  readonly dir: TmpDir
  readonly db: Db
  readonly clock: ManualClock
  capture(options?: Partial<CaptureOptions>): Capture
  /** Absolute path of a transcript under the fixture's dir. */
  path(name: string): string
  write(name: string, content: string | Buffer): string
  append(name: string, content: string | Buffer): string
  events(): StoredEvent[]
  row(name: string): SourceFileRow
}

/** A real SQLite file and a scratch dir for transcripts; capture runs the toy reader. */
export function captureFixture(): CaptureFixture {
  const dir = tmpDir('sangam-capture-')
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  const clock = new ManualClock(Date.parse('2026-11-01T12:00:00Z'))
  const path = (name: string): string => join(dir.path, 'transcripts', name)
  const fixture: CaptureFixture = {
    dir,
    db,
    clock,
    capture: (options = {}) =>
      new Capture({
        db,
        clock,
        log: silentLogger,
        scope: projectScope,
        author: 'dev@example.com',
        readerFor: () => toyReader,
        ...options,
      }),
    path,
    write(name, content) {
      mkdirSync(dirname(path(name)), { recursive: true })
      writeFileSync(path(name), content)
      return path(name)
    },
    append(name, content) {
      appendFileSync(path(name), content)
      return path(name)
    },
    events: () =>
      (db.prepare(`${eventSelect} ORDER BY e.source_file_id, e.byte_offset, e.part`).all() as unknown[]).map(
        toStoredEvent,
      ),
    row(name) {
      const row = getSourceFile(db, path(name))
      if (!row) throw new Error(`no source_file row for ${name}`)
      return row
    },
    [Symbol.asyncDispose]: async () => {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
  return fixture
}

/** The parts of an event that a replay must reproduce exactly. */
export function eventIdentity(event: StoredEvent): string {
  return `${event.id} ${event.kind} ${event.sessionId} ${event.byteOffset}/${event.part} ${JSON.stringify(event.text)}`
}
