import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { databasePath, hookLocatorsFile, projectDir } from '../config/data-paths.ts'
import { findGitLayout, type GitLayout, worktreeRoots } from '../git/git-layout.ts'
import { configMtimeOf, freshEntry, readLocators, writeLocators } from '../git/locator-cache.ts'
import { readRecordedProjectId } from '../git/recorded-project-id.ts'

/**
 * Finds the sangam project a hook runs in without spawning git. A project's id is recorded in its
 * common git dir (`git/recorded-project-id.ts`), read here with one small file read. The human
 * comes from git config, which only git can tell reliably, so the first hook in a checkout asks git
 * (the slow path, one git call) and keeps the answer in `$SANGAM_HOME/hook-locators.json`, keyed by
 * the repository's common git dir (git/locator-cache.ts, which the CLI's commands share). Later
 * hooks read it back after one `stat`: an entry is used only while `<common>/config` is unchanged,
 * while the recorded id is the one it was written with, and for an hour at most. A checkout with no id
 * recorded yet (a sangam from before ids were recorded) takes the slow path, which settles its id
 * as every command does (`services/project-identity.ts`, adopting the store it already has) and
 * records it.
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

/**
 * A repository that is meant to be a sangam project, but whose database is not there: the
 * project was recorded on this machine (its folder exists), or the repository's own Claude Code
 * or Codex settings run our hook (`install-hooks` at project level, committed for the team). Its
 * edits go unchecked, and the hook must say so rather than pass them silently.
 */
export interface MissingStore {
  readonly missingDatabase: string
  /**
   * Stores of this checkout under another id (what it derived before its id was recorded, or
   * derives now): their leases go unchecked too, and the answer names them.
   */
  readonly otherDatabases: readonly string[]
}

/**
 * The project containing `cwd`; a `MissingStore` when its database is missing; null when `cwd` is
 * in no repository or no sangam project (a user-level hook runs in every repository: quiet there).
 */
export async function locateProject(
  sangamHome: string,
  cwd: string,
  now: number,
): Promise<LocatedProject | MissingStore | null> {
  const layout = findGitLayout(cwd)
  if (layout === null) return null
  const recorded = readRecordedProjectId(layout.commonDir)
  const configMtimeMs = configMtimeOf(layout.commonDir)
  const file = hookLocatorsFile(sangamHome)
  const locators = readLocators(file)
  const known = validEntry(locators[layout.commonDir], configMtimeMs, now, recorded)
  const found = known ?? (await askGit(sangamHome, layout, now))
  if (found === null) return null
  const databaseFile = databasePath(sangamHome, found.projectId)
  if (!existsSync(databaseFile)) {
    const expected =
      found.recorded !== null ||
      existsSync(projectDir(sangamHome, found.projectId)) ||
      runsOurHook(layout.worktreeRoot)
    if (!expected) return null
    // The unusual path (a recorded store gone): asking git for the ids to look under is affordable.
    const others = found.derivable ?? (await askGit(sangamHome, layout, now))?.derivable ?? []
    return {
      missingDatabase: databaseFile,
      otherDatabases: others.map((id) => databasePath(sangamHome, id)),
    }
  }
  if (known === null) {
    const entry = {
      projectId: found.projectId,
      gitUser: found.gitUser,
      recorded: found.recorded,
      ...(found.remote === undefined ? {} : { remote: found.remote }),
    }
    writeLocators(file, { ...locators, [layout.commonDir]: { configMtimeMs, checkedAt: now, ...entry } })
  }
  return {
    projectId: found.projectId,
    layout,
    worktrees: worktreeRoots(layout),
    projectDir: projectDir(sangamHome, found.projectId),
    databaseFile,
    gitUser: found.gitUser,
  }
}

/** The project-level host files `install-hooks` writes; read only when a database is missing. */
const projectHookFiles = [join('.claude', 'settings.json'), join('.codex', 'hooks.json')]

function runsOurHook(worktreeRoot: string): boolean {
  return projectHookFiles.some((file) => {
    try {
      return readFileSync(join(worktreeRoot, file), 'utf8').includes('agent-hook-main')
    } catch {
      return false
    }
  })
}

interface Found {
  readonly projectId: string
  readonly gitUser: string | null
  /** The id recorded in the common dir when this was found (after the slow path recorded one). */
  readonly recorded: string | null
  /** Other ids of this checkout that have a store; known only on the slow path. */
  readonly derivable?: readonly string[]
  /** The remote naming the project, kept for the CLI's commands; known only on the slow path. */
  readonly remote?: string | null
}

/**
 * The slow path, imported only when needed: git/ spawns processes, which the fast path never does.
 * It settles the id as `settleHookIdentity` says (an unrecorded checkout adopts its store and
 * records the id, so this runs once per checkout).
 */
async function askGit(sangamHome: string, layout: GitLayout, now: number): Promise<Found | null> {
  const [{ openRepository }, { settleHookIdentity }] = await Promise.all([
    import('../git/repository.ts'),
    import('../identity/services/project-identity.ts'),
  ])
  try {
    const { repo, otherStores } = settleHookIdentity(sangamHome, openRepository(layout.worktreeRoot), now)
    return {
      projectId: repo.projectId,
      gitUser: repo.user,
      recorded: repo.recordedProjectId,
      derivable: otherStores,
      remote: repo.remote,
    }
  } catch {
    return null
  }
}

/**
 * A cached entry, while git config and the recorded id are as it saw them. An entry from before ids
 * were recorded has no `recorded`, so it is used by no checkout: each takes the slow path once.
 */
function validEntry(
  entry: unknown,
  configMtimeMs: number,
  now: number,
  recorded: string | null,
): Found | null {
  const fresh = freshEntry(entry, configMtimeMs, now)
  if (fresh === null || fresh.recorded !== recorded) return null
  return { projectId: recorded ?? fresh.projectId, gitUser: fresh.gitUser, recorded }
}
