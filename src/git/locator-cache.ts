import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { isRecord } from '../shared/is-record.ts'

/**
 * What git config says of a checkout, kept so that neither the hooks nor the CLI's commands spawn
 * git to learn it on every run: `$SANGAM_HOME/hook-locators.json`, one entry per repository keyed
 * by its common git dir (hooks/project-locator.ts wrote it first, for the hooks; commands read and
 * write the same entries, D396). An entry holds while `<common>/config` keeps the modification
 * time it was written with, for an hour at most (git config may also live outside the repository:
 * ~/.gitconfig). One small JSON file rather than a hashed file name per repository: hashing would
 * load node:crypto, which costs a hook more start-up time than reading the file.
 */
export interface LocatorEntry {
  readonly configMtimeMs: number
  readonly checkedAt: number
  /** The project's id when written (the recorded one, once recorded). */
  readonly projectId: string
  /** The id recorded in the common dir when written, or null before one was. */
  readonly recorded: string | null
  /** git `user.email`, else `user.name`, or null. */
  readonly gitUser: string | null
  /** The normalised remote that names the project, or null; absent in entries from before D396. */
  readonly remote?: string | null
}

const maxAgeMs = 60 * 60 * 1000

/** Every entry of the file, or none when it is missing or unreadable (it is only a cache). */
export function readLocators(file: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return isRecord(value) ? value : {}
  } catch {
    return {}
  }
}

/** The entry for `commonDir` if git config is as it saw it and it is at most an hour old, else null. */
export function freshEntry(entry: unknown, configMtimeMs: number, now: number): LocatorEntry | null {
  if (!isRecord(entry) || entry.configMtimeMs !== configMtimeMs) return null
  if (typeof entry.checkedAt !== 'number' || now - entry.checkedAt > maxAgeMs || now < entry.checkedAt)
    return null
  const { projectId, recorded, gitUser, remote } = entry
  if (typeof projectId !== 'string' || !isStringOrNull(recorded) || !isStringOrNull(gitUser)) return null
  if (remote !== undefined && !isStringOrNull(remote)) return null
  const base = { configMtimeMs, checkedAt: entry.checkedAt, projectId, recorded, gitUser }
  return remote === undefined ? base : { ...base, remote }
}

/**
 * Best effort, replaced atomically: two processes writing at once may drop each other's entry, which
 * only costs a later one the slow path again. Never creates SANGAM_HOME itself.
 */
export function writeLocators(file: string, locators: Record<string, unknown>): void {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    if (!existsSync(dirname(file))) return
    writeFileSync(temporary, JSON.stringify(locators), { mode: 0o600 })
    renameSync(temporary, file)
  } catch {
    // An unwritable SANGAM_HOME is reported by the store itself; the locator is only a cache.
  }
}

/** The modification time of the repository's own git config, 0 when it has none. */
export function configMtimeOf(commonDir: string): number {
  try {
    return statSync(join(commonDir, 'config')).mtimeMs
  } catch {
    return 0
  }
}

function isStringOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string'
}
