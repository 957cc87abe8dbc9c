import { existsSync } from 'node:fs'
import { databasePath, projectDir } from '../config/data-paths.ts'
import type { Environment } from '../config/environment.ts'
import { parsePrePushInput, type RefUpdate } from '../git/pre-push-input.ts'
import { pushedFiles } from '../git/pushed-files.ts'
import { openRepository } from '../git/repository.ts'
import type { Actor } from '../identity/protocol/actor.ts'
import { checkoutHuman } from '../identity/services/project-context.ts'
import { settleHookIdentity } from '../identity/services/project-identity.ts'
import { readMainGuard } from '../lanes/services/main-guard-file.ts'
import { describeLease } from '../leases/core/describe.ts'
import { decideEdit } from '../leases/core/edit.ts'
import { matchLeasePath } from '../leases/services/matcher.ts'
import { readLeaseSettings } from '../leases/services/settings.ts'
import { hasLeaseTables, readLeases } from '../leases/store/lease-table.ts'
import { openDatabaseFile } from '../project/store/project-database.ts'

/**
 * The git pre-push gate: refuses a push whose commits touch a file leased by another human,
 * listing each file with its holder, reason and expiry. The pusher is the human of this checkout
 * (SANGAM_USER, else git user.email / user.name); leases held by that human's own agent sessions
 * never block them, since pushing their agents' work is the human's call. Decided on the local
 * replica; when it cannot be read the push goes on with a warning (DESIGN §4).
 */
export interface PushGateRun {
  readonly env: Environment
  readonly cwd: string
  /** The remote's name, or its URL when the push names no remote. */
  readonly remoteName: string
  readonly stdin: string
  readonly now: number
}

export interface PushVerdict {
  readonly refused: boolean
  /** For stderr; empty when there is nothing to say. */
  readonly message: string
  /** For the heartbeat. */
  readonly outcome: string
  /** The project's data directory, when the push is in a sangam project. */
  readonly projectDir: string | null
}

export function gatePush(run: PushGateRun): PushVerdict {
  const { repo } = settleHookIdentity(run.env.sangamHome, openRepository(run.cwd), run.now)
  const input = parsePrePushInput(run.stdin)
  const guarded = guardedMainPush(repo.commonDir, run.env, input.updates)
  const database = databasePath(run.env.sangamHome, repo.projectId)
  if (guarded !== null) {
    const dir = existsSync(database) ? projectDir(run.env.sangamHome, repo.projectId) : null
    return { refused: true, message: guarded, outcome: 'deny: main is protected', projectDir: dir }
  }
  if (!existsSync(database))
    return { refused: false, message: '', outcome: 'not a sangam project', projectDir: null }
  const dir = projectDir(run.env.sangamHome, repo.projectId)
  if (input.malformed.length > 0) {
    return allowWith(
      dir,
      `git sent lines sangam cannot read (${input.malformed[0]}); the push was not checked`,
    )
  }
  const updates = input.updates.filter((update) => update.kind !== 'delete')
  if (updates.length === 0) return { refused: false, message: '', outcome: 'allow', projectDir: dir }
  const pusher: Actor = { human: checkoutHuman(run.env, repo), vendor: null, sessionId: null }
  const files = pushedFiles(repo.root, run.remoteName, updates)
  let reasons: string[]
  try {
    reasons = blockedFiles(database, pusher, files, run.now)
  } catch (error) {
    return allowWith(
      dir,
      `cannot read the lease store (${(error as Error).message.split('\n')[0]}); the push was not checked`,
    )
  }
  if (reasons.length === 0) return { refused: false, message: '', outcome: 'allow', projectDir: dir }
  const message = [
    'sangam: push refused: it changes files leased by someone else:',
    ...reasons.map((reason) => `  ${reason}`),
    'Wait for the lease to end, ask its holder to release it, or override with git push --no-verify.',
    '',
  ].join('\n')
  return { refused: true, message, outcome: 'deny', projectDir: dir }
}

/**
 * Where the main guard is armed, a push that would create, move or delete the remote's main is
 * refused unless sangam's integration makes it (`SANGAM_INTEGRATOR` is the guard's token). Other
 * branches (a lane's, recovery refs) pass. Returns the message, or null to go on.
 */
function guardedMainPush(commonDir: string, env: Environment, updates: readonly RefUpdate[]): string | null {
  const guard = readMainGuard(commonDir)
  if (guard === null || env.integrator === guard.token) return null
  const main = `refs/heads/${guard.mainBranch}`
  if (!updates.some((update) => update.remoteRef === main)) return null
  return [
    `sangam: push refused: main is protected: '${guard.mainBranch}' on the remote moves only through \`sangam sync\`.`,
    'Push your lane branch instead, or publish it with `sangam sync` from the lane.',
    '',
  ].join('\n')
}

/** One line per pushed file another human holds: the file, then each lease covering it. */
function blockedFiles(database: string, pusher: Actor, files: readonly string[], now: number): string[] {
  if (files.length === 0) return []
  const db = openDatabaseFile(database, { readonly: true, busyTimeoutMs: 2000 })
  try {
    if (!hasLeaseTables(db)) return []
    const others = readLeases(db, now).filter((lease) => lease.holder.human !== pusher.human)
    if (others.length === 0) return []
    const settings = readLeaseSettings(db)
    return files.flatMap((file) => {
      if (decideEdit(others, pusher, [file], now, settings, matchLeasePath).decision === 'allow') return []
      const holders = others.filter((lease) => matchLeasePath(lease.pattern, file))
      return holders.map((lease) => `${file}: ${describeLease(lease, now)}`)
    })
  } finally {
    db.close()
  }
}

function allowWith(dir: string | null, warning: string): PushVerdict {
  return {
    refused: false,
    message: `sangam: ${warning}\n`,
    outcome: `fail-open: ${warning}`,
    projectDir: dir,
  }
}
