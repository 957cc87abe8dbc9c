import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { attachmentFile } from '../../config/data-paths.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * Which team server this replica is attached to, and the project key. A file of its own beside
 * the database, mode 0600 in a 0700 directory: the database gets copied into bug reports and read
 * by every hook; the key is only read by what talks to the server. Its presence is what "attached"
 * means, so the hooks and the daemon find out with one read and no SQL.
 */
export interface Attachment {
  /** The server's base URL, as `parseServerUrl` normalised it. */
  readonly url: string
  readonly projectId: string
  /** Names this replica to the server (push rate limits, presence); random, one per attachment. */
  readonly clientId: string
  readonly key: string
  /** ISO-8601. */
  readonly attachedAt: string
}

/** The attachment, or null when this replica is not attached. */
export function readAttachment(projectDir: string): Attachment | null {
  const file = attachmentFile(projectDir)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw unreadable(file, (error as Error).message)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw unreadable(file, 'it is not JSON')
  }
  if (!isAttachment(value)) throw unreadable(file, 'a field is missing')
  // Copied in from elsewhere with looser permissions: tighten rather than refuse.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600)
  return value
}

/** Writes the attachment atomically (a reader sees the old file or the new one), mode 0600. */
export function writeAttachment(projectDir: string, attachment: Attachment): void {
  const file = attachmentFile(projectDir)
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify(attachment, null, 2)}\n`, { mode: 0o600 })
  chmodSync(temporary, 0o600)
  renameSync(temporary, file)
}

/** When the file last changed; the daemon reconnects when it does (a `join` while it runs). */
export function attachmentStamp(projectDir: string): number | null {
  try {
    return statSync(attachmentFile(projectDir)).mtimeMs
  } catch {
    return null
  }
}

function isAttachment(value: unknown): value is Attachment {
  if (typeof value !== 'object' || value === null) return false
  const fields = value as Record<string, unknown>
  return ['url', 'projectId', 'clientId', 'key', 'attachedAt'].every(
    (name) => typeof fields[name] === 'string' && fields[name] !== '',
  )
}

function unreadable(file: string, why: string): SangamError {
  return new SangamError(
    ErrorCode.StoreIncompatible,
    `the team server attachment ${file} is unreadable (${why}); run sangam join with the connection line again`,
    { file },
  )
}
