import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isRecord } from '../../../shared/is-record.ts'

/**
 * opencode's JSON storage, before 1.2 kept its sessions in SQLite (read from opencode 1.1.65's
 * `src/storage/storage.ts` and checked against what 1.1.65 wrote in the offline lab):
 * `storage/session/<projectID>/<sessionID>.json`, `storage/message/<sessionID>/<messageID>.json`
 * and `storage/part/<messageID>/<partID>.json`, each a pretty-printed object rewritten in place
 * (`Bun.write`, not atomic) as it changes. A file read mid-write does not parse and is read again
 * at the next copy. Ids sort in creation order (opencode's ascending ids).
 */
export function opencodeStorageDir(dataDir: string): string {
  return join(dataDir, 'storage')
}

export interface StorageEntry {
  readonly id: string
  readonly file: string
  readonly mtimeMs: number
}

/** Every session file, under any project folder (a session moves from `global` to its project). */
export function storageSessions(storageDir: string): StorageEntry[] {
  const root = join(storageDir, 'session')
  return folders(root).flatMap((project) => entries(join(root, project)))
}

export function storageMessages(storageDir: string, sessionId: string): StorageEntry[] {
  return entries(join(storageDir, 'message', sessionId))
}

export function storageParts(storageDir: string, messageId: string): StorageEntry[] {
  return entries(join(storageDir, 'part', messageId))
}

/** The folder of a session's messages changes when a message is added: part of its mark. */
export function storageMark(storageDir: string, session: StorageEntry): string {
  return `${session.mtimeMs}:${mtimeOf(join(storageDir, 'message', session.id))}`
}

/** The file's object, or null while it is missing, torn or not an object. */
export function readStorageObject(file: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

const idShape = /^[A-Za-z0-9_-]{1,200}$/

function entries(dir: string): StorageEntry[] {
  const found: StorageEntry[] = []
  for (const entry of list(dir)) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue
    const id = entry.name.slice(0, -'.json'.length)
    if (!idShape.test(id)) continue
    const file = join(dir, entry.name)
    const mtimeMs = mtimeOf(file)
    if (mtimeMs !== null) found.push({ id, file, mtimeMs })
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

function folders(dir: string): string[] {
  return list(dir)
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs
  } catch {
    return null
  }
}
