import { createHash } from 'node:crypto'
import {
  type Dirent,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { isRecord } from '../../../shared/is-record.ts'
import { appendJournalLines, takeJournalLock } from '../../journal-file.ts'

/**
 * Gemini CLI before 0.39 kept a session as one pretty-printed JSON document,
 * `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.json` (a subagent's
 * `chats/<parent session>/<session>.json`), rewritten whole and in place (`writeFileSync`, not
 * atomic) on every change. Capture reads appended lines, so the journal copies each document,
 * read-only, into an append-only JSONL file of the layout the CLI itself wrote from 0.39:
 * `$SANGAM_HOME/gemini-journal/<project>/chats/<name>.jsonl`, a metadata line (the document
 * without its messages) then each message, again only when it changed since its last copy.
 * `gemini-reader.ts` reads it like a 0.39+ file: a message repeated as it grows yields only what is
 * new in it, so a rewritten document re-captures nothing, and a message a rewind dropped stays.
 *
 * What the journal holds decides what is still to copy (a crash between appends copies nothing
 * twice); `.state.json` only remembers each document's size and time to skip unchanged ones. A
 * document read mid-write does not parse: it is read again at the next copy, whole. The project's
 * root goes in `.project_root` beside the journal's `chats/`, where `project-root.ts` finds it:
 * from the CLI's own `.project_root` (0.29+), or, before 0.29 when the folder was the sha256 of
 * the root, from the project roots the copier serves (a folder of another project waits for its
 * own sangam).
 */
export interface GeminiJournalOptions {
  /** Gemini CLI's directory (`~/.gemini`). */
  readonly geminiDir: string
  readonly journalDir: string
  /** Roots whose sha256 may name a project folder of Gemini CLI before 0.29. */
  readonly projectRoots: readonly string[]
  readonly now: number
}

export interface GeminiJournalSync {
  readonly appended: number
  readonly sessions: number
  readonly busy: boolean
}

interface Document {
  /** Relative to `tmp/`: `<project>/chats/[<parent>/]<name>.json`. */
  readonly rel: string
  readonly path: string
  readonly mark: string
}

const hashFolder = /^[0-9a-f]{64}$/

export function syncGeminiJournal(options: GeminiJournalOptions): GeminiJournalSync {
  const none = { appended: 0, sessions: 0, busy: false }
  const documents = legacyDocuments(options.geminiDir)
  if (documents.length === 0) return none
  mkdirSync(options.journalDir, { recursive: true, mode: 0o700 })
  const lock = join(options.journalDir, '.lock')
  if (!takeJournalLock(lock, options.now)) return { ...none, busy: true }
  try {
    const stateFile = join(options.journalDir, '.state.json')
    const marks = readMarks(stateFile)
    const next: Record<string, string> = {}
    const hashes = rootsByHash(options.projectRoots)
    let appended = 0
    let sessions = 0
    for (const document of documents) {
      if (marks[document.rel] === document.mark) {
        next[document.rel] = document.mark
        continue
      }
      const project = document.rel.split(sep)[0] ?? ''
      const root = projectRootOf(join(options.geminiDir, 'tmp', project), project, hashes)
      if (root === null) {
        // Another project's folder (named by its hash): its own sangam copies it; keep its mark.
        const kept = marks[document.rel]
        if (kept !== undefined) next[document.rel] = kept
        continue
      }
      const copied = copyDocument(options.journalDir, document, project, root)
      if (copied === null) continue
      next[document.rel] = document.mark
      appended += copied
      if (copied > 0) sessions++
    }
    writeMarks(stateFile, next)
    return { appended, sessions, busy: false }
  } finally {
    rmSync(lock, { force: true })
  }
}

/** What the daemon watches to know when to copy: each legacy document's size and time. */
export function geminiLegacyMarks(geminiDir: string): string {
  return legacyDocuments(geminiDir)
    .map((document) => `${document.rel}=${document.mark}`)
    .join('|')
}

/** Lines appended, or null when the document could not be read whole (read again next time). */
function copyDocument(journalDir: string, document: Document, project: string, root: string): number | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(document.path, 'utf8'))
  } catch {
    return null
  }
  if (!isRecord(value)) return null
  const target = join(journalDir, `${document.rel.slice(0, -'.json'.length)}.jsonl`)
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
  writeProjectRoot(join(journalDir, project), root)
  const held = heldCopies(target)
  const lines: string[] = []
  const { messages, ...metadata } = value
  if (!held.hasMetadata) lines.push(`${JSON.stringify(metadata)}\n`)
  for (const message of Array.isArray(messages) ? messages : []) {
    const text = JSON.stringify(message)
    const key = keyOf(message, text)
    const print = fingerprint(text)
    if (held.copies.get(key) === print) continue
    held.copies.set(key, print)
    lines.push(`${text}\n`)
  }
  appendJournalLines(target, lines)
  return lines.length
}

interface Held {
  readonly hasMetadata: boolean
  /** Per message id, the fingerprint of its last copy in the journal. */
  readonly copies: Map<string, string>
}

function heldCopies(file: string): Held {
  const copies = new Map<string, string>()
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return { hasMetadata: false, copies }
  }
  let hasMetadata = false
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      continue // a torn last line holds no copy; its message is copied again, whole
    }
    if (isRecord(record) && typeof record.sessionId === 'string' && record.id === undefined) {
      hasMetadata = true
      continue
    }
    const text = JSON.stringify(record)
    copies.set(keyOf(record, text), fingerprint(text))
  }
  return { hasMetadata, copies }
}

function keyOf(message: unknown, text: string): string {
  return isRecord(message) && typeof message.id === 'string'
    ? `id:${message.id}`
    : `text:${fingerprint(text)}`
}

function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('base64url')
}

/** The root Gemini CLI recorded beside the folder, or the served root whose sha256 names it. */
function projectRootOf(
  projectDir: string,
  folder: string,
  hashes: ReadonlyMap<string, string>,
): string | null {
  try {
    const root = readFileSync(join(projectDir, '.project_root'), 'utf8').trim()
    if (root !== '') return root
  } catch {
    // Before 0.29 there was no such file: the folder is the root's hash.
  }
  return hashFolder.test(folder) ? (hashes.get(folder) ?? null) : null
}

function rootsByHash(roots: readonly string[]): Map<string, string> {
  const hashes = new Map<string, string>()
  for (const root of roots) {
    for (const path of [root, realOrNull(root)]) {
      if (path !== null) hashes.set(createHash('sha256').update(path).digest('hex'), path)
    }
  }
  return hashes
}

function writeProjectRoot(projectDir: string, root: string): void {
  const file = join(projectDir, '.project_root')
  try {
    if (readFileSync(file, 'utf8') === root) return
  } catch {
    // not written yet
  }
  writeFileSync(file, root, { mode: 0o600 })
}

/** Every `session-*.json` under `tmp/<project>/chats/`, and every `.json` one folder deeper. */
function legacyDocuments(geminiDir: string): Document[] {
  const tmp = join(geminiDir, 'tmp')
  const found: Document[] = []
  for (const project of list(tmp).filter((entry) => entry.isDirectory())) {
    const chats = join(tmp, project.name, 'chats')
    for (const entry of list(chats)) {
      if (entry.isFile() && entry.name.startsWith('session-') && entry.name.endsWith('.json'))
        pushDocument(found, tmp, join(chats, entry.name))
      if (!entry.isDirectory()) continue
      for (const inner of list(join(chats, entry.name))) {
        if (inner.isFile() && inner.name.endsWith('.json'))
          pushDocument(found, tmp, join(chats, entry.name, inner.name))
      }
    }
  }
  return found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
}

function pushDocument(found: Document[], tmp: string, path: string): void {
  try {
    const stat = statSync(path)
    found.push({ rel: relative(tmp, path), path, mark: `${stat.size}:${stat.mtimeMs}` })
  } catch {
    // gone between listing and looking
  }
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

function readMarks(file: string): Record<string, string> {
  try {
    const state: unknown = JSON.parse(readFileSync(file, 'utf8'))
    const marks = isRecord(state) && isRecord(state.documents) ? state.documents : {}
    return Object.fromEntries(
      Object.entries(marks).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    )
  } catch {
    return {}
  }
}

function writeMarks(file: string, documents: Record<string, string>): void {
  const temporary = `${file}.tmp`
  writeFileSync(temporary, `${JSON.stringify({ documents })}\n`, { mode: 0o600 })
  renameSync(temporary, file)
}
