import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A project's identity, fixed once the project exists: `<git-common-dir>/sangam/project-id`, one
 * line. Every worktree of the repository shares the common dir, so all of them (and every lane)
 * read the same id; a clone does not copy it, so a fresh clone derives its id from its remote as
 * before and teammates agree. Kept beside `main-guard` rather than in git config: a hook reads it
 * with one `readFileSync` and no git process, and no global or included git config can shadow it.
 */
export function recordedProjectIdFile(commonDir: string): string {
  return join(commonDir, 'sangam', 'project-id')
}

/**
 * The sync protocol's project id shape (`sync/protocol/project.ts`), written out here so that the
 * hook's fast path does not load zod to check one line.
 */
const projectIdShape = /^[A-Za-z0-9_-]{1,64}$/

/** The recorded id, or null when none is recorded (or the file holds something else). */
export function readRecordedProjectId(commonDir: string): string | null {
  let text: string
  try {
    text = readFileSync(recordedProjectIdFile(commonDir), 'utf8')
  } catch {
    return null
  }
  const id = text.trim()
  return projectIdShape.test(id) ? id : null
}

/**
 * Records `projectId` as the repository's identity, replacing the file atomically so that a hook
 * never reads half a line. Returns false when the git dir cannot be written (a read-only checkout):
 * the caller goes on with the id it resolved, as sangam did before ids were recorded.
 */
export function recordProjectId(commonDir: string, projectId: string): boolean {
  if (!projectIdShape.test(projectId)) return false
  const file = recordedProjectIdFile(commonDir)
  const temporary = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(join(commonDir, 'sangam'), { recursive: true, mode: 0o700 })
    writeFileSync(temporary, `${projectId}\n`)
    renameSync(temporary, file)
    return true
  } catch {
    rmSync(temporary, { force: true })
    return false
  }
}
