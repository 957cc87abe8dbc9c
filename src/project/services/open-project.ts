import { existsSync } from 'node:fs'
import { databasePath } from '../../config/data-paths.ts'
import type { Environment } from '../../config/environment.ts'
import { recordProjectId } from '../../git/recorded-project-id.ts'
import { openRepository, type Repository, rememberRepository } from '../../git/repository.ts'
import {
  checkoutHuman,
  type OpenProjectOptions,
  type ProjectContext,
} from '../../identity/services/project-context.ts'
import { resolveProjectIdentity } from '../../identity/services/project-identity.ts'
import type { Clock } from '../../shared/clock.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { readProject, writeProject } from '../../store/project-table.ts'
import { openProjectDatabase } from '../store/project-database.ts'

/**
 * Finds the repository containing `cwd`, settles which store is its project
 * (`resolveProjectIdentity`), opens it (creating and migrating when `createStore` allows), records
 * the project in the store and its id in the repository's common dir, so that it never changes
 * again. Nothing leaves the machine.
 */
export function openProject(
  env: Environment,
  cwd: string,
  clock: Clock,
  options: OpenProjectOptions = {},
): ProjectContext {
  const cache = { sangamHome: env.sangamHome, now: clock.now() }
  const identity = resolveProjectIdentity(env.sangamHome, openRepository(cwd, cache), {
    now: cache.now,
    scan: true,
  })
  const { repo } = identity
  if (options.createStore === false && !existsSync(databasePath(env.sangamHome, repo.projectId)))
    throw nothingYet(env, repo)
  const db = openProjectDatabase(env.sangamHome, repo.projectId, {
    busyTimeoutMs: options.busyBudgetMs,
    setupTimeoutMs: options.busyBudgetMs,
  })
  try {
    recordProject(db, repo, clock)
  } catch (error) {
    db.close()
    throw error
  }
  // Recorded once the store exists: from now on no remote added, changed or removed moves it.
  if (repo.recordedProjectId !== repo.projectId) recordProjectId(repo.commonDir, repo.projectId)
  const opened = { ...repo, recordedProjectId: repo.projectId }
  rememberRepository(opened, cache)
  return {
    env,
    clock,
    repo: opened,
    db,
    human: checkoutHuman(env, repo),
    adoption:
      identity.adopted === null ? null : { adopted: identity.adopted, passedOver: identity.passedOver },
    close: () => db.close(),
  }
}

/** What a read command says in a repository sangam has recorded nothing for. */
function nothingYet(env: Environment, repo: Repository): SangamError {
  const recorded =
    repo.recordedProjectId === null
      ? ''
      : ` (its recorded project ${repo.recordedProjectId} has no store in ${env.sangamHome})`
  const database = databasePath(env.sangamHome, repo.projectId)
  return new SangamError(
    ErrorCode.NotFound,
    `nothing yet: sangam has no project for ${repo.root}${recorded}; sangam init starts one, and any command that writes (claim, post, note, lane) does too`,
    { projectId: repo.projectId, database },
    { next: 'sangam init' },
  )
}

function recordProject(db: Db, repo: Repository, clock: Clock): void {
  const existing = readProject(db)
  if (
    existing &&
    existing.id === repo.projectId &&
    existing.remote === repo.remote &&
    existing.commonDir === repo.commonDir
  )
    return
  writeProject(db, {
    id: repo.projectId,
    // The first worktree that recorded the project stays its root; others are found via git.
    root: existing?.root ?? repo.root,
    remote: repo.remote,
    identitySource: repo.identitySource,
    commonDir: repo.commonDir,
    createdAt: existing?.createdAt ?? clock.now(),
  })
}
