import type { Db } from '../../store/db.ts'

// Record shapes a reader did not recognise, so `doctor` can report them instead of dropping them.
// signature : the record's sorted top-level keys (and payload keys for Codex), e.g. "payload.type,type".
export const createUnknownShapeTable = /*sql*/ `
  CREATE TABLE unknown_shape (
    source_file_id INTEGER NOT NULL REFERENCES source_file(id) ON DELETE CASCADE,
    cli_version    TEXT NOT NULL DEFAULT '',
    record_type    TEXT NOT NULL,
    signature      TEXT NOT NULL,
    count          INTEGER NOT NULL,
    first_offset   INTEGER NOT NULL,
    PRIMARY KEY (source_file_id, cli_version, record_type, signature)
  );`

export interface UnknownShape {
  readonly cliVersion: string
  readonly recordType: string
  readonly signature: string
  readonly count: number
  readonly firstOffset: number
}

export function recordUnknownShape(
  db: Db,
  sourceFileId: number,
  shape: { cliVersion: string | null; recordType: string; signature: string; offset: number },
): void {
  db.prepare(
    /*sql*/ `INSERT INTO unknown_shape (source_file_id, cli_version, record_type, signature, count, first_offset)
             VALUES (?, ?, ?, ?, 1, ?)
             ON CONFLICT DO UPDATE SET count = count + 1`,
  ).run(sourceFileId, shape.cliVersion ?? '', shape.recordType, shape.signature, shape.offset)
}

export function listUnknownShapes(db: Db, sourceFileId: number): UnknownShape[] {
  return db
    .prepare(
      /*sql*/ `SELECT cli_version AS cliVersion, record_type AS recordType, signature, count, first_offset AS firstOffset
               FROM unknown_shape WHERE source_file_id = ? ORDER BY count DESC, record_type`,
    )
    .all(sourceFileId) as UnknownShape[]
}

export function deleteUnknownShapes(db: Db, sourceFileId: number): void {
  db.prepare('DELETE FROM unknown_shape WHERE source_file_id = ?').run(sourceFileId)
}
