import type { DatabaseSync } from 'node:sqlite'

/**
 * opencode's own database (`~/.local/share/opencode/opencode.db`, 1.2 and later), opened read-only:
 * sangam never writes it and never holds a write lock on it. Rows come back as opencode stores
 * them: the ids and times in columns, the rest of each message and part as the JSON text of its
 * `data` column, parsed by the journal (services/opencode-journal.ts), never here.
 */
export interface OpencodeSessionRow {
  readonly id: string
  readonly projectId: string
  readonly parentId: string | null
  readonly directory: string
  readonly title: string
  readonly version: string
  readonly timeCreated: number
  readonly timeUpdated: number
}

export interface OpencodePartRow {
  readonly id: string
  readonly messageId: string
  readonly sessionId: string
  readonly timeCreated: number
  readonly timeUpdated: number
  readonly data: string
  readonly messageData: string
  readonly messageTimeCreated: number
}

export interface OpencodeDatabase {
  /** Parts updated after `since` (ms epoch), oldest update first, at most `limit`. */
  partsUpdatedAfter(since: number, limit: number): OpencodePartRow[]
  session(id: string): OpencodeSessionRow | null
  close(): void
}

/** Null when opencode has no database there (never ran, or a version before 1.2). */
export function openOpencodeDatabase(file: string): OpencodeDatabase | null {
  let db: DatabaseSync
  try {
    // Loaded already by the project's own store, whose loader keeps Node 22's warning quiet.
    db = new (process.getBuiltinModule('node:sqlite').DatabaseSync)(file, { readOnly: true, timeout: 2000 })
  } catch {
    return null
  }
  // A database of another shape (a future opencode, or not opencode's) is read as none.
  let parts: ReturnType<DatabaseSync['prepare']>
  let session: ReturnType<DatabaseSync['prepare']>
  try {
    parts = db.prepare(
      `SELECT p.id AS id, p.message_id AS messageId, p.session_id AS sessionId,
            p.time_created AS timeCreated, p.time_updated AS timeUpdated, p.data AS data,
            m.data AS messageData, m.time_created AS messageTimeCreated
       FROM part p JOIN message m ON m.id = p.message_id
      WHERE p.time_updated > ?
      ORDER BY p.time_updated, p.id
      LIMIT ?`,
    )
    session = db.prepare(
      `SELECT id, project_id AS projectId, parent_id AS parentId, directory, title, version,
            time_created AS timeCreated, time_updated AS timeUpdated
       FROM session WHERE id = ?`,
    )
  } catch {
    db.close()
    return null
  }
  return {
    partsUpdatedAfter: (since, limit) => parts.all(since, limit) as unknown as OpencodePartRow[],
    session: (id) => (session.get(id) as OpencodeSessionRow | undefined) ?? null,
    close: () => db.close(),
  }
}
