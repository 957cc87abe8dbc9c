import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isRecord } from '../../../shared/is-record.ts'
import { appendJournalLines, takeJournalLock } from '../../journal-file.ts'
import { isFinalPart } from '../opencode-part.ts'
import { type OpencodeDatabase, openOpencodeDatabase } from '../store/opencode-database.ts'
import {
  opencodeStorageDir,
  readStorageObject,
  storageMark,
  storageMessages,
  storageParts,
  storageSessions,
} from './opencode-storage.ts'

/**
 * opencode keeps its sessions in SQLite (1.2+), and before that in JSON files rewritten in place
 * (opencode-storage.ts): neither can be tailed. The journal copies them, read-only and
 * mechanically, into one append-only JSONL file per session under
 * `$SANGAM_HOME/opencode-journal/<session>.jsonl`; from there capture reads them like any other
 * transcript (offsets, exactly-once, `doctor`'s line accounting). Each line is one of
 * `{"type":"session","session":{…}}` (the file's first), `{"type":"message","message":{…}}` (before
 * its first part) and `{"type":"part","part":{…}}`: from the database, each object the row's
 * columns and its parsed `data` column, in the shape the JSON storage has, so both read alike.
 *
 * A part is copied once, when it is final (opencode-part.ts). What the journal holds decides what
 * is still to copy, so a crash between two appends copies nothing twice, and a session opencode
 * 1.2 moved from its JSON storage into its database is not copied again. `.state.json` only saves
 * work: the newest part update before which the database is copied (the watermark), and per
 * storage session the mark (its file's and its messages folder's times) at which it was copied
 * whole. One process copies at a time (journal-file.ts).
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
const sessionIdShape = /^[A-Za-z0-9_-]{1,200}$/

export function opencodeDatabaseFile(dataDir: string): string {
  return join(dataDir, 'opencode.db')
}

/** What the daemon watches to know when to copy: the database, its log, the storage's sessions. */
export function opencodeSourceMarks(dataDir: string): string {
  const db = opencodeDatabaseFile(dataDir)
  const storage = opencodeStorageDir(dataDir)
  const sessions = storageSessions(storage).map((entry) => `${entry.id}=${storageMark(storage, entry)}`)
  return [fileMark(db), fileMark(`${db}-wal`), ...sessions].join('|')
}

function fileMark(file: string): string {
  try {
    const stat = statSync(file)
    return `${stat.size}:${stat.mtimeMs}`
  } catch {
    return '-'
  }
}

export function syncOpencodeJournal(options: JournalOptions): JournalSync {
  const none = { appended: 0, sessions: 0, busy: false }
  const dbFile = opencodeDatabaseFile(options.dataDir)
  const storage = opencodeStorageDir(options.dataDir)
  const hasDatabase = existsSync(dbFile)
  const hasStorage = existsSync(join(storage, 'session'))
  if (!hasDatabase && !hasStorage) return none
  mkdirSync(options.journalDir, { recursive: true, mode: 0o700 })
  const lock = join(options.journalDir, '.lock')
  if (!takeJournalLock(lock, options.now)) return { ...none, busy: true }
  try {
    const stateFile = join(options.journalDir, '.state.json')
    const state = readState(stateFile)
    const copier = new Copier(options.journalDir)
    const storageMarks = hasStorage ? copyStorage(storage, state.storage, copier, options.now) : state.storage
    let watermark = state.watermark
    if (hasDatabase) {
      const db = openOpencodeDatabase(dbFile)
      if (db !== null) {
        try {
          watermark = copyDatabase(db, watermark, copier, options.now)
        } finally {
          db.close()
        }
      }
    }
    writeState(stateFile, { watermark, storage: storageMarks })
    return { appended: copier.appended, sessions: copier.touched.size, busy: false }
  } finally {
    rmSync(lock, { force: true })
  }
}

/** The journal's session files open in this copy, and what was appended to them. */
class Copier {
  readonly #journalDir: string
  readonly #files = new Map<string, SessionFile>()
  readonly touched = new Set<string>()
  appended = 0

  constructor(journalDir: string) {
    this.#journalDir = journalDir
  }

  /** Appends a final part (and its session and message lines first, when the journal has none). */
  part(
    ids: { readonly sessionId: string; readonly messageId: string; readonly partId: string },
    part: Record<string, unknown>,
    message: Record<string, unknown>,
    session: () => Record<string, unknown> | null,
  ): void {
    let file = this.#files.get(ids.sessionId)
    if (file === undefined) {
      file = openSessionFile(this.#journalDir, ids.sessionId)
      this.#files.set(ids.sessionId, file)
    }
    const lines = linesFor(file, ids, part, message, session)
    if (lines.length === 0) return
    appendJournalLines(file.path, lines)
    this.appended += lines.length
    this.touched.add(ids.sessionId)
  }
}

/**
 * The JSON storage: each session whose mark moved since it was last copied whole is walked,
 * message by message, part by part. A file that does not parse yet, or a part not final yet,
 * leaves the session's mark unset so the next copy walks it again.
 */
function copyStorage(
  storage: string,
  marks: Readonly<Record<string, string>>,
  copier: Copier,
  now: number,
): Record<string, string> {
  const next: Record<string, string> = {}
  for (const entry of storageSessions(storage)) {
    const mark = storageMark(storage, entry)
    if (marks[entry.id] === mark) {
      next[entry.id] = mark
      continue
    }
    const session = readStorageObject(entry.file)
    if (session === null) continue
    let whole = true
    for (const messageEntry of storageMessages(storage, entry.id)) {
      const message = readStorageObject(messageEntry.file)
      if (message === null) {
        whole = false
        continue
      }
      for (const partEntry of storageParts(storage, messageEntry.id)) {
        const part = readStorageObject(partEntry.file)
        if (part === null || !isFinalPart(part, message, partEntry.mtimeMs, now)) {
          whole = false
          continue
        }
        copier.part(
          { sessionId: entry.id, messageId: messageEntry.id, partId: partEntry.id },
          part,
          message,
          () => sessionLine(session, entry.id),
        )
      }
    }
    if (whole) next[entry.id] = mark
  }
  return next
}

function sessionLine(session: Record<string, unknown>, id: string): Record<string, unknown> {
  return {
    id,
    projectID: session.projectID ?? null,
    parentID: session.parentID ?? null,
    directory: session.directory ?? null,
    title: session.title ?? null,
    version: session.version ?? null,
    time: session.time ?? null,
  }
}

/** The database: parts updated since the watermark, each once it is final; the new watermark. */
function copyDatabase(db: OpencodeDatabase, from: number, copier: Copier, now: number): number {
  let watermark = from
  let since = watermark
  let pendingFrom: number | null = null
  for (;;) {
    const rows = db.partsUpdatedAfter(since, pageSize)
    for (const row of rows) {
      if (!sessionIdShape.test(row.sessionId)) continue
      const part = parsed(row.data)
      const message = parsed(row.messageData)
      if (!isFinalPart(part, message, row.timeUpdated, now)) {
        pendingFrom ??= row.timeUpdated
        continue
      }
      copier.part(
        { sessionId: row.sessionId, messageId: row.messageId, partId: row.id },
        part,
        message,
        () => {
          const session = db.session(row.sessionId)
          return session === null
            ? null
            : {
                id: session.id,
                projectID: session.projectId,
                parentID: session.parentId,
                directory: session.directory,
                title: session.title,
                version: session.version,
                time: { created: session.timeCreated, updated: session.timeUpdated },
              }
        },
      )
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
  return watermark
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
  file: SessionFile,
  ids: { readonly sessionId: string; readonly messageId: string; readonly partId: string },
  part: Record<string, unknown>,
  message: Record<string, unknown>,
  session: () => Record<string, unknown> | null,
): string[] {
  if (file.ids.has(`part:${ids.partId}`)) return []
  const lines: string[] = []
  if (!file.hasSession) {
    const record = session()
    if (record !== null) lines.push(line('session', record))
    file.hasSession = true
  }
  if (!file.ids.has(`message:${ids.messageId}`)) {
    lines.push(line('message', { ...message, id: ids.messageId, sessionID: ids.sessionId }))
    file.ids.add(`message:${ids.messageId}`)
  }
  lines.push(line('part', { ...part, id: ids.partId, sessionID: ids.sessionId, messageID: ids.messageId }))
  file.ids.add(`part:${ids.partId}`)
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

interface JournalState {
  readonly watermark: number
  readonly storage: Readonly<Record<string, string>>
}

function readState(file: string): JournalState {
  try {
    const state: unknown = JSON.parse(readFileSync(file, 'utf8'))
    if (!isRecord(state)) return { watermark: 0, storage: {} }
    const storage = isRecord(state.storage) ? state.storage : {}
    return {
      watermark: typeof state.watermark === 'number' ? state.watermark : 0,
      storage: Object.fromEntries(
        Object.entries(storage).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      ),
    }
  } catch {
    return { watermark: 0, storage: {} }
  }
}

function writeState(file: string, state: JournalState): void {
  const temporary = `${file}.tmp`
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 })
  renameSync(temporary, file)
}
