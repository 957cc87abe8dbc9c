import { join } from 'node:path'
import type { EventKind, Vendor } from '../../src/memory/protocol/event.ts'
import { EventWriter } from '../../src/memory/store/event-table.ts'
import { SessionWriter } from '../../src/memory/store/session-table.ts'
import { ensureSourceFile } from '../../src/memory/store/source-file-table.ts'
import { openDatabaseFile } from '../../src/project/store/project-database.ts'
import type { Db } from '../../src/store/database.ts'
import { type TmpDir, tmpDir } from './tmp-git-repo.ts'

/** One event to store; everything but the text has a plain default. */
export interface EventSpec {
  readonly text: string
  readonly kind?: EventKind | undefined
  /** ms epoch or ISO. */
  readonly at?: number | string | undefined
  readonly vendor?: Vendor | undefined
  readonly sessionId?: string | undefined
  readonly author?: string | undefined
  readonly branch?: string | null | undefined
  readonly cwd?: string | null | undefined
  readonly cliVersion?: string | null | undefined
  /** Transcript path the event was read from; none for notes. */
  readonly source?: string | undefined
  readonly offset?: number | undefined
  readonly part?: number | undefined
  readonly toolName?: string | undefined
  readonly id?: string | undefined
}

/**
 * Writes events the way capture does (event row, FTS entry, session row) into a real database, so
 * recall can be tested without transcripts.
 */
export class EventStore {
  readonly db: Db
  readonly #events: EventWriter
  readonly #sessions: SessionWriter
  #next = 0

  constructor(db: Db) {
    this.db = db
    this.#events = new EventWriter(db)
    this.#sessions = new SessionWriter(db)
  }

  /** Stores the events in one transaction and returns their ids, in order. */
  add(...specs: EventSpec[]): string[] {
    return this.db.transaction(() => specs.map((spec) => this.#addOne(spec)))()
  }

  #addOne(spec: EventSpec): string {
    const n = this.#next++
    const at =
      typeof spec.at === 'string' ? Date.parse(spec.at) : (spec.at ?? Date.parse('2026-11-01T12:00:00Z') + n)
    const vendor = spec.vendor ?? 'claude'
    const kind = spec.kind ?? 'human'
    const sessionId = spec.sessionId ?? 'session-1'
    const source =
      spec.source === undefined || vendor === 'sangam'
        ? null
        : ensureSourceFile(this.db, spec.source, vendor, at)
    const id = spec.id ?? `ev_fixture_${String(n).padStart(6, '0')}`
    this.#events.insert({
      id,
      kind,
      vendor,
      cliVersion: spec.cliVersion === undefined ? '2.1.0' : spec.cliVersion,
      sessionId,
      author: spec.author ?? 'dev@example.com',
      cwd: spec.cwd === undefined ? '/work/widget' : spec.cwd,
      branch: spec.branch === undefined ? 'main' : spec.branch,
      at,
      sourceFileId: source?.id ?? null,
      byteOffset: source === null ? null : (spec.offset ?? n * 100),
      part: spec.part ?? 0,
      toolName: spec.toolName ?? null,
      callId: null,
      joinKey: null,
      text: spec.text,
      fullSize: spec.text.length,
      shareable: kind !== 'tool_output',
    })
    if (kind !== 'note') {
      this.#sessions.touch({
        id: sessionId,
        vendor,
        author: spec.author ?? 'dev@example.com',
        cliVersion: spec.cliVersion === undefined ? '2.1.0' : spec.cliVersion,
        cwd: spec.cwd === undefined ? '/work/widget' : spec.cwd,
        branch: spec.branch === undefined ? 'main' : spec.branch,
        at,
        events: 1,
      })
    }
    return id
  }
}

export interface MemoryFixture extends AsyncDisposable {
  readonly dir: TmpDir
  readonly db: Db
  readonly store: EventStore
}

/** A real SQLite file in a scratch dir, with the schema, ready for events. */
export function memoryFixture(): MemoryFixture {
  const dir = tmpDir('sangam-memory-')
  const db = openDatabaseFile(join(dir.path, 'sangam.db'))
  return {
    dir,
    db,
    store: new EventStore(db),
    [Symbol.asyncDispose]: async () => {
      db.close()
      await dir[Symbol.asyncDispose]()
    },
  }
}
