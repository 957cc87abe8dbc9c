import type { Environment } from '../config/environment.ts'
import { openRepository, type Repository } from '../git/repository.ts'
import type { Clock } from '../shared/clock.ts'
import { type Db, openProjectDatabase } from '../store/database.ts'
import { readProject, writeProject } from '../store/project-table.ts'
import { resolveHuman } from './human.ts'

/** An opened project: the repository we run in, its database, and who "I" am. */
export interface ProjectContext {
  readonly env: Environment
  readonly clock: Clock
  readonly repo: Repository
  readonly db: Db
  /** The human acting here: SANGAM_USER, else git user.email / user.name, else the OS user. */
  readonly human: string
  close(): void
}

export interface OpenProjectOptions {
  /**
   * How long any wait for the database's lock may last, opening included, before STORE_BUSY. Read
   * commands pass a small budget; without it, opening waits as long as 200 processes migrating
   * together need, and writes wait 5 s.
   */
  readonly busyBudgetMs?: number | undefined
}

/**
 * Finds the repository containing `cwd`, opens (creating and migrating) its database, and records
 * the project if this is the first time. Nothing leaves the machine.
 */
export function openProject(
  env: Environment,
  cwd: string,
  clock: Clock,
  options: OpenProjectOptions = {},
): ProjectContext {
  const repo = openRepository(cwd)
  const db = openProjectDatabase(env.sangamHome, repo.projectId, {
    busyTimeoutMs: options.busyBudgetMs,
    setupTimeoutMs: options.busyBudgetMs,
  })
  recordProject(db, repo, clock)
  return {
    env,
    clock,
    repo,
    db,
    human: checkoutHuman(env, repo),
    close: () => db.close(),
  }
}

/** The human of this checkout (see `resolveHuman`). */
export function checkoutHuman(env: Environment, repo: Repository): string {
  return resolveHuman(env, repo.user)
}

function recordProject(db: Db, repo: Repository, clock: Clock): void {
  const existing = readProject(db)
  if (existing && existing.remote === repo.remote && existing.commonDir === repo.commonDir) return
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
