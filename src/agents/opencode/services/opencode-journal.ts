import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { isRecord } from '../../../shared/is-record.ts'
import { isFinalPart } from '../opencode-part.ts'
import { type OpencodePartRow, openOpencodeDatabase } from '../store/opencode-database.ts'

/**
 * opencode keeps its sessions in SQLite (1.2+), not in files sangam can tail. The journal copies
 * them, read-only and mechanically, into one append-only JSONL file per session under
 * `$SANGAM_HOME/opencode-journal/<session>.jsonl`; from there capture reads them like any other
 * transcript (offsets, exactly-once, `doctor`'s line accounting). Each line is one of
 * `{"type":"session","session":{…}}` (the file's first), `{"type":"message","message":{…}}` (before
 * its first part) and `{"type":"part","part":{…}}`, each object the row's columns and its parsed
 * `data` column, in the shape opencode's own JSON storage had before 1.2.
 *
 * A part is copied once, when it is final (opencode-part.ts). What the journal holds decides what
 * is still to copy, so a crash between two appends copies nothing twice; the watermark in
 * `.state.json` (the newest part update before which everything is copied) only saves reading the
 * whole database each time. One process copies at a time (`.lock`); a lock older than a minute is
 * a crashed copier's and is taken over.
 */
export interface JournalOptions {
  /** opencode's data directory (`$XDG_DATA_HOME/opencode`, default `~/.local/share/opencode`). */
  readonly dataDir: string
  readonly journalDir: string
  readonly now: number
}

export interface JournalSync {
  /** Lines appended to the journal. */
  readonly appended: number
  /** Session files appended to. */
  readonly sessions: number
  /** Another process was copying; nothing was done. */
  readonly busy: boolean
}

const pageSize = 2000
const lockStaleMs = 60_000
const sessionIdShape = /^[A-Za-z0-9_-]{1,200}$/

export function opencodeDatabaseFile(dataDir: string): string {
  return join(dataDir, 'opencode.db')
}

export function syncOpencodeJournal(options: JournalOptions): JournalSync {
  const none = { appended: 0, sessions: 0, busy: false }
  const dbFile = opencodeDatabaseFile(options.dataDir)
  if (!existsSync(dbFile)) return none
  mkdirSync(options.journalDir, { recursive: true, mode: 0o700 })
  const lock = join(options.journalDir, '.lock')
  if (!takeLock(lock, options.now)) return { ...none, busy: true }
  try {
    const db = openOpencodeDatabase(dbFile)
    if (db === null) return none
    try {
      return copy(db, options)
    } finally {
      db.close()
    }
  } finally {
    rmSync(lock, { force: true })
  }
}

function copy(
  db: NonNullable<ReturnType<typeof openOpencodeDatabase>>,
  options: JournalOptions,
): JournalSync {
  const stateFile = join(options.journalDir, '.state.json')
  let watermark = readWatermark(stateFile)
  const files = new Map<string, SessionFile>()
  let appended = 0
  const touched = new Set<string>()
  let since = watermark
  let pendingFrom: number | null = null
  for (;;) {
    const rows = db.partsUpdatedAfter(since, pageSize)
    for (const row of rows) {
      if (!sessionIdShape.test(row.sessionId)) continue
      const part = parsed(row.data)
      const message = parsed(row.messageData)
      if (!isFinalPart(part, message, row.timeUpdated, options.now)) {
        pendingFrom ??= row.timeUpdated
        continue
      }
      let file = files.get(row.sessionId)
      if (file === undefined) {
        file = openSessionFile(options.journalDir, row.sessionId)
        files.set(row.sessionId, file)
      }
      const lines = linesFor(db, file, row, part, message)
      if (lines.length === 0) continue
      appendFileSync(file.path, lines.join(''), { mode: 0o600 })
      appended += lines.length
      touched.add(row.sessionId)
    }
    const last = rows.at(-1)
    if (last === undefined || rows.length < pageSize) {
      if (last !== undefined && pendingFrom === null) watermark = last.timeUpdated
      break
    }
    // A page that ends inside one millisecond's updates would skip the rest of it: the next page
    // starts a millisecond earlier, and what the journal holds keeps it from being copied twice.
    since = last.timeUpdated > since + 1 ? last.timeUpdated - 1 : last.timeUpdated
    if (pendingFrom === null) watermark = since
  }
  if (pendingFrom !== null) watermark = Math.max(watermark, pendingFrom - 1)
  writeWatermark(stateFile, watermark)
  return { appended, sessions: touched.size, busy: false }
}

interface SessionFile {
  readonly path: string
  readonly ids: Set<string>
  hasSession: boolean
}

/** The session's journal and the ids it already holds. */
function openSessionFile(journalDir: string, sessionId: string): SessionFile {
  const path = join(journalDir, `${sessionId}.jsonl`)
  const file: SessionFile = { path, ids: new Set(), hasSession: false }
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return file
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const record: unknown = JSON.parse(line)
      if (!isRecord(record)) continue
      if (record.type === 'session') file.hasSession = true
      const inner = record[String(record.type)]
      if (isRecord(inner) && typeof inner.id === 'string') file.ids.add(`${record.type}:${inner.id}`)
    } catch {
      // A torn last line (a crash mid-append) holds no id; its part is copied again, whole.
    }
  }
  return file
}

function linesFor(
  db: NonNullable<ReturnType<typeof openOpencodeDatabase>>,
  file: SessionFile,
  row: OpencodePartRow,
  part: Record<string, unknown>,
  message: Record<string, unknown>,
): string[] {
  if (file.ids.has(`part:${row.id}`)) return []
  const lines: string[] = []
  if (!file.hasSession) {
    const session = db.session(row.sessionId)
    if (session !== null) {
      lines.push(
        line('session', {
          id: session.id,
          projectID: session.projectId,
          parentID: session.parentId,
          directory: session.directory,
          title: session.title,
          version: session.version,
          time: { created: session.timeCreated, updated: session.timeUpdated },
        }),
      )
    }
    file.hasSession = true
  }
  if (!file.ids.has(`message:${row.messageId}`)) {
    lines.push(line('message', { ...message, id: row.messageId, sessionID: row.sessionId }))
    file.ids.add(`message:${row.messageId}`)
  }
  lines.push(line('part', { ...part, id: row.id, sessionID: row.sessionId, messageID: row.messageId }))
  file.ids.add(`part:${row.id}`)
  return lines
}

function line(type: string, value: Record<string, unknown>): string {
  return `${JSON.stringify({ type, [type]: value })}\n`
}

/** The `data` column's object; text that is not a JSON object is kept under `raw`, for doctor. */
function parsed(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : { raw: text }
  } catch {
    return { raw: text }
  }
}

function takeLock(lock: string, now: number): boolean {
  try {
    closeSync(openSync(lock, 'wx', 0o600))
    return true
  } catch {
    try {
      if (now - statSync(lock).mtimeMs < lockStaleMs) return false
      writeFileSync(lock, '', { mode: 0o600 })
      return true
    } catch {
      return false
    }
  }
}

function readWatermark(file: string): number {
  try {
    const state: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return isRecord(state) && typeof state.watermark === 'number' ? state.watermark : 0
  } catch {
    return 0
  }
}

function writeWatermark(file: string, watermark: number): void {
  const temporary = `${file}.tmp`
  writeFileSync(temporary, `${JSON.stringify({ watermark })}\n`, { mode: 0o600 })
  renameSync(temporary, file)
}
