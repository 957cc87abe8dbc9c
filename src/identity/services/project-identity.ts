import { existsSync, readdirSync, renameSync } from 'node:fs'
import { runningDaemon } from '../../config/daemon-discovery.ts'
import { daemonFile, databasePath, projectDir, projectsDir } from '../../config/data-paths.ts'
import { recordedProjectIdFile, recordProjectId } from '../../git/recorded-project-id.ts'
import { type Repository, withProjectId } from '../../git/repository.ts'
import { quoteInput } from '../../shared/quote-input.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { openReadonlyStore } from '../../store/database.ts'
import { readProject } from '../../store/project-table.ts'
import { holdsWork, readStoreContents, type StoreContents } from '../../store/store-contents.ts'

/**
 * Which store on this machine is a checkout's project. A recorded id (`git/recorded-project-id.ts`)
 * whose store exists decides alone. A checkout with none recorded (new, or used by a sangam from
 * before ids were recorded), or whose recorded store is gone, adopts a store it already has rather
 * than starting an empty one: one under an id it derives (from its remote, or from its common dir,
 * what it had before it had a remote), or, when `scan` is set and neither exists, one whose project
 * row names its common dir (an id derived from a remote since changed or removed). When two hold
 * work, the oldest wins (D261).
 */
export interface ResolvedIdentity {
  /** The repository named by the id to use (recorded, adopted, or derived for a new project). */
  readonly repo: Repository
  /** The store an unrecorded checkout adopted, or null (recorded, or nothing to adopt). */
  readonly adopted: CheckoutStore | null
  /** The other stores found while adopting, kept as they are (`doctor` and `init` name them). */
  readonly passedOver: readonly CheckoutStore[]
}

/** A project store on this machine, as far as it can be read. */
export interface CheckoutStore {
  readonly projectId: string
  readonly database: string
  /** When its project was first recorded (ms epoch); null when the store could not be read. */
  readonly createdAt: number | null
  /** The common git dir its project row names; null when unreadable. */
  readonly commonDir: string | null
  readonly contents: StoreContents | null
  /** Why the store could not be read (busy, newer schema, not a database), else null. */
  readonly problem: string | null
}

export interface ResolveOptions {
  readonly now: number
  /** Look through every store on the machine when no derivable one exists (not on a hook's path). */
  readonly scan: boolean
}

export function resolveProjectIdentity(
  sangamHome: string,
  repo: Repository,
  options: ResolveOptions,
): ResolvedIdentity {
  const recorded = repo.recordedProjectId
  if (recorded !== null && existsSync(databasePath(sangamHome, recorded)))
    return { repo, adopted: null, passedOver: [] }
  const derivable = derivableStores(sangamHome, repo)
  // One store under a derivable id is adopted without opening it: the common case, an upgrade.
  const only = derivable.length === 1 ? derivable[0] : undefined
  if (only !== undefined) {
    const adopted = unreadStore(sangamHome, only)
    return { repo: withProjectId(repo, only), adopted, passedOver: [] }
  }
  const found =
    derivable.length > 0
      ? derivable.map((id) => readCheckoutStore(sangamHome, id, options.now))
      : options.scan
        ? scanStores(sangamHome, repo.commonDir, options.now)
        : []
  const chosen = chooseStore(found, repo.derivedProjectId)
  if (chosen === null) return { repo, adopted: null, passedOver: [] }
  return {
    repo: withProjectId(repo, chosen.projectId),
    adopted: chosen,
    passedOver: found.filter((store) => store !== chosen),
  }
}

/** The ids this checkout derives now (from its remote, from its common dir) that have a store here. */
export function derivableStores(sangamHome: string, repo: Repository): string[] {
  return [...new Set([repo.derivedProjectId, repo.commonDirProjectId])].filter(
    (id) => id !== repo.recordedProjectId && existsSync(databasePath(sangamHome, id)),
  )
}

/**
 * Every store on this machine of this checkout besides the one it uses: under an id it derives
 * now, or whose project row names its common dir. What `doctor` reports and `init` offers to adopt.
 */
export function otherStoresOfCheckout(sangamHome: string, repo: Repository, now: number): CheckoutStore[] {
  const stores = scanStores(sangamHome, repo.commonDir, now)
  for (const id of [repo.derivedProjectId, repo.commonDirProjectId]) {
    if (stores.some((store) => store.projectId === id) || !existsSync(databasePath(sangamHome, id))) continue
    stores.push(readCheckoutStore(sangamHome, id, now))
  }
  return stores.filter((store) => store.projectId !== repo.projectId)
}

/** The store under `projectId`, read without writing anything; null when it has no database. */
export function readCheckoutStore(sangamHome: string, projectId: string, now: number): CheckoutStore {
  const database = databasePath(sangamHome, projectId)
  try {
    const db = openReadonlyStore(database, { busyTimeoutMs: 1000 })
    try {
      const row = readProject(db)
      return {
        projectId,
        database,
        createdAt: row?.createdAt ?? null,
        commonDir: row?.commonDir ?? null,
        contents: readStoreContents(db, now),
        problem: null,
      }
    } finally {
      db.close()
    }
  } catch (error) {
    return { ...unreadStore(sangamHome, projectId), problem: (error as Error).message }
  }
}

/** A store known to exist, not opened. */
function unreadStore(sangamHome: string, projectId: string): CheckoutStore {
  return {
    projectId,
    database: databasePath(sangamHome, projectId),
    createdAt: null,
    commonDir: null,
    contents: null,
    problem: null,
  }
}

/** The stores whose project row names `commonDir`. */
function scanStores(sangamHome: string, commonDir: string, now: number): CheckoutStore[] {
  let ids: string[]
  try {
    ids = readdirSync(projectsDir(sangamHome))
  } catch {
    return []
  }
  return ids
    .sort()
    .filter((id) => existsSync(databasePath(sangamHome, id)))
    .map((id) => readCheckoutStore(sangamHome, id, now))
    .filter((store) => store.commonDir === commonDir)
}

/**
 * Of the stores found, the one holding work (an unreadable one may: it counts as holding some);
 * of several, the oldest, whose identity came first. None holding work: the one a fresh clone
 * would derive, else the oldest.
 */
function chooseStore(stores: readonly CheckoutStore[], derivedProjectId: string): CheckoutStore | null {
  const working = stores.filter((store) => store.contents === null || holdsWork(store.contents))
  const oldestFirst = (pool: readonly CheckoutStore[]) =>
    [...pool].sort(
      (a, b) => (a.createdAt ?? Number.MAX_SAFE_INTEGER) - (b.createdAt ?? Number.MAX_SAFE_INTEGER),
    )
  if (working.length > 0) return oldestFirst(working)[0] ?? null
  return stores.find((store) => store.projectId === derivedProjectId) ?? oldestFirst(stores)[0] ?? null
}

/** `prj_… (2 live lease(s), 14 message(s), 1 lane(s), 310 event(s); /path/sangam.db)`. */
export function describeCheckoutStore(store: CheckoutStore): string {
  const c = store.contents
  const what =
    store.problem !== null
      ? `unreadable: ${store.problem}`
      : c === null
        ? 'not read'
        : holdsWork(c)
          ? `${c.liveLeases} live lease(s), ${c.leaseLog} lease change(s), ${c.messages} message(s), ${c.lanes} lane(s), ${c.events} event(s)`
          : 'empty'
  return `${store.projectId} (${what}; ${store.database})`
}

/**
 * `init --adopt <id>`: makes another store of this checkout (one `otherStoresOfCheckout` finds)
 * its project, by recording its id. The store it used until now stays as it is, and adopting it
 * back is the same command. Refused for an id that is no store of this checkout; null when the id
 * is already this checkout's.
 */
export function adoptStore(
  sangamHome: string,
  repo: Repository,
  projectId: string,
  now: number,
): CheckoutStore | null {
  if (repo.projectId === projectId && existsSync(databasePath(sangamHome, projectId))) return null
  const store = otherStoresOfCheckout(sangamHome, repo, now).find((other) => other.projectId === projectId)
  if (store === undefined)
    throw new SangamError(
      ErrorCode.NotFound,
      `${quoteInput(projectId)} is no store of this checkout in ${projectsDir(sangamHome)} (a store of this checkout is under an id it derives, or its project names ${repo.commonDir}); sangam doctor lists them`,
    )
  if (!recordProjectId(repo.commonDir, projectId))
    throw new SangamError(
      ErrorCode.DataDirUnusable,
      `cannot record the project id in ${recordedProjectIdFile(repo.commonDir)}; check that the git dir is writable`,
    )
  return store
}

/** What moving a checkout to a team's project id did (`join`). */
export interface ProjectMove {
  readonly from: string
  readonly to: string
  /** The checkout's store was moved to the new id (its folder renamed), keeping all it held. */
  readonly storeMoved: boolean
  /** The checkout's store left where it was, because the new id already had one; else null. */
  readonly storeKept: string | null
}

/**
 * Makes `projectId` (a teammate's connection line) this checkout's identity, so that every
 * machine of the team names the project alike whatever each clone derives (D263). The checkout's
 * store goes with it, its folder renamed, unless the new id has a store here already (then both
 * stay, and `doctor` names the other) or the store serves another clone of the same remote. A
 * daemon running on the store is refused first: it would go on writing under the old id.
 */
export function moveCheckoutTo(
  sangamHome: string,
  repo: Repository,
  projectId: string,
  now: number,
): ProjectMove {
  const from = repo.projectId
  if (from === projectId) return { from, to: projectId, storeMoved: false, storeKept: null }
  const fromDir = projectDir(sangamHome, from)
  const hasStore = existsSync(databasePath(sangamHome, from))
  const targetHasStore = existsSync(databasePath(sangamHome, projectId))
  const own = hasStore && readCheckoutStore(sangamHome, from, now).commonDir === repo.commonDir
  const move = own && !targetHasStore && !existsSync(projectDir(sangamHome, projectId))
  if (move) {
    const daemon = runningDaemon(daemonFile(sangamHome, from))
    if (daemon !== null)
      throw new SangamError(
        ErrorCode.DaemonRunning,
        `sangam up (pid ${daemon.pid}) runs on this checkout's store ${fromDir}; stop it, then join again: joining moves the store to project ${projectId}`,
      )
    renameSync(fromDir, projectDir(sangamHome, projectId))
  }
  if (!recordProjectId(repo.commonDir, projectId))
    throw new SangamError(
      ErrorCode.DataDirUnusable,
      `cannot record the project id in ${recordedProjectIdFile(repo.commonDir)}; check that the git dir is writable`,
    )
  return { from, to: projectId, storeMoved: move, storeKept: hasStore && !move ? from : null }
}

/**
 * A hook's settling of the id (the agent hooks' slow path, the pre-push hook): as commands do, but
 * without looking through every store (a hook in a repository that is no sangam project runs this
 * on each event), and a store it adopts has its id recorded, so this happens once per checkout. A
 * recorded id stays even when its store is gone: the hook reports it, and `sangam init` adopts
 * what is there. `otherStores`: the other ids of this checkout with a store, for that report.
 */
export function settleHookIdentity(
  sangamHome: string,
  repo: Repository,
  now: number,
): { readonly repo: Repository; readonly otherStores: readonly string[] } {
  if (repo.recordedProjectId !== null) return { repo, otherStores: derivableStores(sangamHome, repo) }
  const resolved = resolveProjectIdentity(sangamHome, repo, { now, scan: false })
  const id = resolved.repo.projectId
  if (resolved.adopted === null || !recordProjectId(repo.commonDir, id))
    return {
      repo: resolved.repo,
      otherStores: derivableStores(sangamHome, repo).filter((other) => other !== id),
    }
  const recorded = { ...resolved.repo, recordedProjectId: id }
  return { repo: recorded, otherStores: derivableStores(sangamHome, recorded) }
}
