import { projectKeySchema } from '../../src/sync/protocol/project.ts'
import { bearerKey, digestKey, digestsEqual, unauthorized } from './auth.ts'
import { insertProjectRow, type ProjectRow, readProjectRow } from './project-row.ts'
import { Refusal } from './refusal.ts'

/** Compared against when the project does not exist, so that answer costs what a wrong key costs. */
const absentDigest = '0'.repeat(64)

export type CreateOutcome = { readonly created: boolean; readonly row: ProjectRow }

/**
 * Trust on first use: the first create of a project id stores the digest of the key it came with;
 * a later create with the same key is a harmless retry, with another key a refusal.
 */
export async function createProject(
  sql: SqlStorage,
  request: Request,
  projectId: string,
  now: number,
  /** Creates the object's schema; called only once the key is known to be acceptable. */
  ensureSchema: () => void,
): Promise<CreateOutcome> {
  const key = projectKeySchema.safeParse(bearerKey(request))
  if (!key.success)
    throw new Refusal('INVALID_REQUEST', key.error.issues[0]?.message ?? 'invalid project key')
  const digest = await digestKey(key.data)
  // No await between this read and the insert: two racing creates cannot both register.
  ensureSchema()
  const existing = readProjectRow(sql)
  if (existing === null) {
    insertProjectRow(sql, projectId, digest, now)
    return { created: true, row: { projectId, keyDigest: digest, createdAt: now, fencingToken: 0 } }
  }
  if (digestsEqual(existing.keyDigest, digest) && existing.projectId === projectId)
    return { created: false, row: existing }
  throw new Refusal('PROJECT_TAKEN', `project ${projectId} is already registered with another key`)
}

/**
 * The project row when the request's key is this project's; one refusal for every other case.
 * `exists` is false for an object whose project was never created: nothing is read or written
 * then, but the key is still digested and compared, so that answer costs what a wrong key costs.
 */
export async function authenticate(
  sql: SqlStorage,
  request: Request,
  projectId: string,
  exists: boolean,
): Promise<ProjectRow> {
  const digest = await digestKey(bearerKey(request))
  const row = exists ? readProjectRow(sql) : null
  const matches = digestsEqual(row?.keyDigest ?? absentDigest, digest)
  if (row === null || !matches || row.projectId !== projectId) throw unauthorized()
  return row
}
