import type { Actor } from '../identity/protocol/actor.ts'
import { isSameActor } from '../leases/core/actor.ts'
import type { EditOutcome } from '../leases/core/edit.ts'
import { literalPattern, patternKey } from '../leases/core/pattern.ts'
import type { Lease } from '../leases/protocol/lease.ts'
import { checkEdit, checkEditsReadOnly, type EditCheck } from '../leases/services/edit.ts'
import { openDatabaseFile } from '../project/store/project-database.ts'
import { checkRoomRules, type EditedFile, worktreeOf } from '../room/services/edit-rules.ts'
import { translateSqliteError } from '../store/database.ts'
import { allowEdit, denyEdit, type HookAnswer } from './hook-answer.ts'
import { openHookStore } from './hook-store.ts'
import type { StepHandle } from './hook-work.ts'
import type { LocatedProject } from './project-locator.ts'

/**
 * The PreToolUse decision. It is taken on a read-only connection, which in WAL mode never waits
 * for a writer (the daemon may be committing a capture batch): a denial needs nothing else. Only
 * an allowed edit inside the project writes, in one short transaction that records (or renews)
 * the editor's auto-lease; that transaction decides again under the write lock, so of two agents
 * racing for one free file exactly one gets it. An edit whose auto-lease was renewed in the last
 * minute writes nothing. If the write lock stays taken past its short timeout, or the team server
 * does not answer within the edit's budget, the edit is still allowed (it was) and its auto-lease
 * is kept for afterwards (`autoLease.keep`): the daemon or the next hook records it.
 */
export interface EditGateInput {
  readonly project: LocatedProject
  readonly actor: Actor
  readonly cwd: string
  /** The files the tool call writes, as the tool named them. */
  readonly targets: readonly string[]
  readonly now: number
  /** The run's auto-lease step: done when recorded or not needed, kept when it could not be. */
  readonly autoLease: StepHandle
}

const readBusyTimeoutMs = 300
const writeBusyTimeoutMs = 300
const renewAfterMs = 60_000

export async function gateEdit(input: EditGateInput): Promise<HookAnswer> {
  const clock = { now: () => input.now }
  const checks: EditCheck[] = input.targets.map((file) => ({
    actor: input.actor,
    file,
    cwd: input.cwd,
    worktrees: input.project.worktrees,
  }))
  const reader = openDatabaseFile(input.project.databaseFile, {
    readonly: true,
    busyTimeoutMs: readBusyTimeoutMs,
  })
  try {
    const { outcomes: decided, leases: held } = readOnlyDecision(reader, checks, clock, input.project)
    const room = roomDecision(reader, input, decided)
    const refused = decided.filter((outcome) => outcome.decision === 'deny')
    const denials = [...refused.map((outcome) => outcome.reason), ...room.denials]
    if (denials.length > 0) {
      input.autoLease.done()
      return denyEdit(denials.join('\n'))
    }
    const warnings = [...decided.flatMap((outcome) => outcome.warnings), ...room.notes]
    const unrecorded = checks.filter((_, index) => {
      const path = decided[index]?.path ?? null
      return path !== null && !holdsFreshAutoLease(held, input.actor, path, input.now)
    })
    if (unrecorded.length === 0) {
      input.autoLease.done()
      return allowEdit(warnings)
    }
    return await recordAutoLeases(input, unrecorded, clock, room.notes)
  } finally {
    // Closed after the writer on purpose. The last connection to close a WAL database checkpoints
    // it and deletes the WAL, with an fsync, and the next write creates the WAL again: without a
    // daemon holding the database open, that was most of an auto-lease's cost. A read-only
    // connection closing last does neither, so the WAL stays for the next edit, as it would with
    // the daemon running, and SQLite's automatic checkpoints keep it short.
    reader.close()
  }
}

function readOnlyDecision(
  reader: ReturnType<typeof openDatabaseFile>,
  checks: readonly EditCheck[],
  clock: { now(): number },
  project: LocatedProject,
): ReturnType<typeof checkEditsReadOnly> {
  try {
    return checkEditsReadOnly(reader, checks, clock)
  } catch (error) {
    throw translateSqliteError(error, project.databaseFile)
  }
}

/**
 * The room's house rules for this tool call (`one-actor-per-worktree`, `file-overlap`), on the
 * same read-only connection. Any failure (a store from before the room's tables, an unreadable
 * row) leaves the lease decision as it is and says so: the rules fail open like the gate.
 */
function roomDecision(
  reader: ReturnType<typeof openDatabaseFile>,
  input: EditGateInput,
  decided: readonly EditOutcome[],
): { readonly denials: readonly string[]; readonly notes: readonly string[] } {
  try {
    const files: EditedFile[] = []
    input.targets.forEach((target, index) => {
      const path = decided[index]?.path ?? null
      const worktree = path === null ? null : worktreeOf(target, input.cwd, input.project.worktrees)
      if (path !== null && worktree !== null) files.push({ worktree, path })
    })
    if (files.length === 0) return { denials: [], notes: [] }
    return checkRoomRules(
      reader,
      {
        vendor: input.actor.vendor,
        sessionId: input.actor.sessionId,
        worktree: input.project.layout.worktreeRoot,
        files,
      },
      input.now,
    )
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    return {
      denials: [],
      notes: [`the room's house rules were not checked (${why}); the edit was allowed by them`],
    }
  }
}

/**
 * Whether the editor renewed its auto-lease on `path` within the last minute. Agents edit one
 * file many times in a row; renewing on each edit would make every one of them a write, for an
 * expiry (10 minutes by default) moved by seconds.
 */
function holdsFreshAutoLease(held: readonly Lease[], actor: Actor, path: string, now: number): boolean {
  const key = patternKey(literalPattern(path))
  return held.some(
    (lease) =>
      lease.kind === 'auto' &&
      isSameActor(lease.holder, actor) &&
      patternKey(lease.pattern) === key &&
      now - lease.renewedAt < renewAfterMs &&
      lease.expiresAt > now,
  )
}

async function recordAutoLeases(
  input: EditGateInput,
  checks: readonly EditCheck[],
  clock: { now(): number },
  roomNotes: readonly string[],
): Promise<HookAnswer> {
  let writer: ReturnType<typeof openDatabaseFile>
  try {
    writer = openHookStore(input.project.databaseFile, writeBusyTimeoutMs)
  } catch (error) {
    return unrecorded(input.autoLease, error, roomNotes)
  }
  try {
    // Imported here: a denial never writes, so it never loads the arbiter. While attached to a
    // team server the auto-lease is taken there, within the edit budget (sync-server-arbiter.ts).
    const { chooseLeaseArbiter } = await import('../project/services/lease-arbiter.ts')
    const arbiter = chooseLeaseArbiter(writer, input.project.projectDir, clock, {
      local: { editBusyTimeoutMs: writeBusyTimeoutMs },
    })
    const outcomes: EditOutcome[] = []
    for (const check of checks) outcomes.push(await checkEdit(arbiter, check))
    input.autoLease.done()
    const refused = outcomes.filter((outcome) => outcome.decision === 'deny')
    if (refused.length > 0) return denyEdit(refused.map((outcome) => outcome.reason).join('\n'))
    return allowEdit([...outcomes.flatMap((outcome) => outcome.warnings), ...roomNotes])
  } catch (error) {
    return unrecorded(input.autoLease, error, roomNotes)
  } finally {
    writer.close()
  }
}

/**
 * Allowed on the read-only decision, but the auto-lease could not be written: it is kept for
 * afterwards, and the hook's answer says so (hook-answer.ts `withKeptWork`). A store that cannot be
 * written at all keeps nothing, and the answer says the lease was not recorded.
 */
function unrecorded(autoLease: StepHandle, error: unknown, roomNotes: readonly string[]): HookAnswer {
  if (autoLease.fail(error)) return allowEdit(roomNotes)
  const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
  return {
    ...allowEdit(roomNotes),
    stderr: `sangam: edit allowed; its auto-lease was not recorded (${why})\n`,
    outcome: 'allow (auto-lease not recorded)',
  }
}
