import type { Environment } from '../../config/environment.ts'
import type { Repository } from '../../git/repository.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/database.ts'
import { resolveHuman } from './human.ts'
import type { CheckoutStore } from './project-identity.ts'

/** An opened project: the repository we run in, its database, and who "I" am. */
export interface ProjectContext {
  readonly env: Environment
  readonly clock: Clock
  readonly repo: Repository
  readonly db: Db
  /** The human acting here: SANGAM_USER, else git user.email / user.name, else the OS user. */
  readonly human: string
  /**
   * The store this open adopted for a checkout whose id was not recorded yet (an upgrade, or a
   * checkout split by a remote added before ids were recorded), and the ones it passed over.
   */
  readonly adoption: { readonly adopted: CheckoutStore; readonly passedOver: readonly CheckoutStore[] } | null
  close(): void
}

export interface OpenProjectOptions {
  /**
   * How long any wait for the database's lock may last, opening included, before STORE_BUSY. Read
   * commands pass a small budget; without it, opening waits as long as 200 processes migrating
   * together need, and writes wait 5 s.
   */
  readonly busyBudgetMs?: number | undefined
  /**
   * False for a command that only reads: a project with no store yet is NOT_FOUND ("nothing here
   * yet") rather than a new empty store. Default true: a command that writes starts the project.
   */
  readonly createStore?: boolean | undefined
}

/** The human of this checkout (see `resolveHuman`). */
export function checkoutHuman(env: Environment, repo: Repository): string {
  return resolveHuman(env, repo.user)
}
