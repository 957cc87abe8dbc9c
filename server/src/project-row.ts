/** The project's one row: who it is, the digest of its key, and the fencing token counter. */
export interface ProjectRow {
  readonly projectId: string
  readonly keyDigest: string
  readonly createdAt: number
  readonly fencingToken: number
}

interface ProjectRowSql extends Record<string, SqlStorageValue> {
  project_id: string
  key_digest: string
  created_at: number
  fencing_token: number
}

export function readProjectRow(sql: SqlStorage): ProjectRow | null {
  const row = sql
    .exec<ProjectRowSql>('SELECT project_id, key_digest, created_at, fencing_token FROM project')
    .toArray()[0]
  if (row === undefined) return null
  return {
    projectId: row.project_id,
    keyDigest: row.key_digest,
    createdAt: row.created_at,
    fencingToken: row.fencing_token,
  }
}

export function insertProjectRow(
  sql: SqlStorage,
  projectId: string,
  keyDigest: string,
  createdAt: number,
): void {
  sql.exec(
    'INSERT INTO project (lock, project_id, key_digest, created_at, fencing_token) VALUES (1, ?, ?, ?, 0)',
    projectId,
    keyDigest,
    createdAt,
  )
}

/** Records the last fencing token issued. Call inside the transaction that granted its leases. */
export function recordFencingToken(sql: SqlStorage, token: number): void {
  sql.exec('UPDATE project SET fencing_token = ? WHERE fencing_token <= ?', token, token)
}
