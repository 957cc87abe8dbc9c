import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitUser, openRepository } from '../git/repository.ts'
import { databasePath, projectDir } from '../store/database.ts'
import { findGitLayout, type GitLayout, worktreeRoots } from './git-layout.ts'
import { isRecord, stringField } from './hook-payload.ts'

/**
 * Finds the sangam project a hook runs in without spawning git. The project id comes from the
 * normalised remote, which only git can tell reliably, so the first hook in a checkout asks git
 * (the slow path, a few git calls) and leaves a locator in `$SANGAM_HOME/hook-locators/`, keyed by
 * the repository's common git dir. Later hooks read it back after one `stat`: the locator is used
 * only while `<common>/config` is unchanged (a new remote changes the project id) and for an hour
 * at most (the human comes from git config, which may also live outside the repository).
 */
export interface LocatedProject {
  readonly projectId: string
  readonly layout: GitLayout
  /** Every worktree of the repository (real paths), the main one first. */
  readonly worktrees: readonly string[]
  readonly projectDir: string
  readonly databaseFile: string
  /** git `user.email` / `user.name` of this checkout, or null; SANGAM_USER takes precedence. */
  readonly gitUser: string | null
}

const maxAgeMs = 60 * 60 * 1000

/** The project containing `cwd`, or null when `cwd` is in no repository or no sangam project. */
export function locateProject(sangamHome: string, cwd: string, now: number): LocatedProject | null {
  const layout = findGitLayout(cwd)
  if (layout === null) return null
  const configMtimeMs = mtimeOf(join(layout.commonDir, 'config'))
  const file = join(
    sangamHome,
    'hook-locators',
    `${createHash('sha256').update(layout.commonDir).digest('hex').slice(0, 24)}.json`,
  )
  const known = readLocator(file, layout.commonDir, configMtimeMs, now)
  const found = known ?? askGit(layout)
  if (found === null) return null
  const databaseFile = databasePath(sangamHome, found.projectId)
  if (!existsSync(databaseFile)) return null
  if (known === null)
    writeLocator(file, { commonDir: layout.commonDir, configMtimeMs, checkedAt: now, ...found })
  return {
    projectId: found.projectId,
    layout,
    worktrees: worktreeRoots(layout),
    projectDir: projectDir(sangamHome, found.projectId),
    databaseFile,
    gitUser: found.gitUser,
  }
}

interface Found {
  readonly projectId: string
  readonly gitUser: string | null
}

function askGit(layout: GitLayout): Found | null {
  try {
    const repo = openRepository(layout.worktreeRoot)
    return { projectId: repo.projectId, gitUser: gitUser(repo.root) }
  } catch {
    return null
  }
}

function readLocator(file: string, commonDir: string, configMtimeMs: number, now: number): Found | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
  if (!isRecord(value) || value.commonDir !== commonDir || value.configMtimeMs !== configMtimeMs) return null
  if (typeof value.checkedAt !== 'number' || now - value.checkedAt > maxAgeMs || now < value.checkedAt)
    return null
  const projectId = stringField(value, 'projectId')
  return projectId === null ? null : { projectId, gitUser: stringField(value, 'gitUser') }
}

/** Best effort: a locator that cannot be written only costs the next hook the slow path again. */
function writeLocator(file: string, locator: Record<string, unknown>): void {
  const dir = join(file, '..')
  const temporary = `${file}.${process.pid}.tmp`
  try {
    if (!existsSync(dir)) {
      if (!existsSync(join(dir, '..'))) return
      mkdirSync(dir, { mode: 0o700 })
    }
    writeFileSync(temporary, JSON.stringify(locator), { mode: 0o600 })
    renameSync(temporary, file)
  } catch {
    // An unwritable SANGAM_HOME is reported by the store itself; the locator is only a cache.
  }
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return 0
  }
}
