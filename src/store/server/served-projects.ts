import { type Dirent, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { openConnection } from '../connection.ts'
import type { Db } from '../db.ts'

/**
 * The project ids a `sangam serve` data dir holds: every Durable Object database under
 * `durable-objects/` whose `project` row (server/src/schema.ts) names one. Read while no workerd
 * runs on the dir (serve holds its lock), before it starts, so the server's registrar can list
 * projects created before it kept ids. A file that is not a project (the registrar, Miniflare's
 * own metadata, an object that never registered) names none.
 */
export function servedProjectIds(objectsDir: string): string[] {
  const ids: string[] = []
  for (const file of sqliteFiles(objectsDir)) {
    const id = projectIdIn(file)
    if (id !== null) ids.push(id)
  }
  return ids.sort()
}

function sqliteFiles(dir: string): string[] {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    // No objects yet (a new data dir): no projects.
    return []
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sqliteFiles(path)
    return entry.name.endsWith('.sqlite') ? [path] : []
  })
}

function projectIdIn(file: string): string | null {
  let db: Db | null = null
  try {
    // Not read-only: a database workerd left in WAL mode may need its shared-memory file made.
    // The file was just listed; SQLite's usual 5 s wait covers a workerd still letting go of it.
    db = openConnection(file, { timeoutMs: 5000 })
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'project'").get()
    if (table === undefined) return null
    const row = db.prepare('SELECT project_id FROM project').get() as { project_id?: unknown } | undefined
    return typeof row?.project_id === 'string' ? row.project_id : null
  } catch {
    // Not a SQLite database, or one another program holds: it names no project we can list.
    return null
  } finally {
    db?.close()
  }
}
