import { resolve, sep } from 'node:path'
import { readOptionGroup } from '../../options/services/option-store.ts'
import type { Db } from '../../store/database.ts'
import { remoteWorktreeName } from '../core/cross-machine-overlap.ts'
import { decideEditRules, type EditRulesOutcome, type OverlapSeen } from '../core/edit-rules.ts'
import { roomOptions } from '../core/settings.ts'
import { overlapsAt } from '../store/overlap-table.ts'
import { readPresence } from '../store/presence-table.ts'
import { readWorktreePlaces } from '../store/worktree-state-table.ts'
import { machineNames } from './machine-names.ts'

/** One edited file: the worktree it lies in and its repository-relative path. */
export interface EditedFile {
  readonly worktree: string
  readonly path: string
}

export interface RoomEditCheck {
  readonly vendor: string | null
  readonly sessionId: string | null
  /** The editing session's worktree. */
  readonly worktree: string
  readonly files: readonly EditedFile[]
}

/**
 * The room's rules for one tool call, on the hook's read-only connection: the room rungs, then
 * only what a rung that is not off needs (presence, the overlap rows of the edited paths). No git,
 * no network: the daemon keeps the overlap picture. Throws on an unreadable store (an older one
 * without the room's tables); the hook then lets the edit go on, as it fails open everywhere.
 */
export function checkRoomRules(db: Db, check: RoomEditCheck, now: number): EditRulesOutcome {
  const settings = readOptionGroup(db, roomOptions)
  const sessions = settings.oneActorPerWorktree === 'off' ? [] : readPresence(db)
  const overlaps: OverlapSeen[] =
    settings.fileOverlap === 'off'
      ? []
      : check.files.flatMap((file) => overlapsAt(db, file.worktree, file.path))
  return decideEditRules(
    {
      oneActorPerWorktree: settings.oneActorPerWorktree,
      fileOverlap: settings.fileOverlap,
      sessions,
      overlaps: namedForPeople(db, overlaps),
    },
    { vendor: check.vendor, sessionId: check.sessionId, worktree: check.worktree },
    now,
  )
}

/** The deepest of `worktrees` holding `file` (as the tool named it, relative to `cwd`), or null. */
export function worktreeOf(file: string, cwd: string, worktrees: readonly string[]): string | null {
  const absolute = resolve(cwd, file)
  let found: string | null = null
  for (const root of worktrees) {
    if (
      (absolute === root || absolute.startsWith(root + sep)) &&
      (found === null || root.length > found.length)
    )
      found = root
  }
  return found
}

/**
 * Another machine's worktree is `<machine>:<path>` in the overlap table; an agent told "no" is
 * better told `#target (path on machine bob-laptop)`, as its state and the machine's name say. Read only when there is a
 * collision to describe.
 */
function namedForPeople(db: Db, overlaps: readonly OverlapSeen[]): OverlapSeen[] {
  if (!overlaps.some((overlap) => !overlap.otherWorktree.startsWith('/'))) return [...overlaps]
  const machines = machineNames(db, null)
  const names = new Map(
    readWorktreePlaces(db).map((state) => {
      const machine = machines.label(state.machine)
      return [
        remoteWorktreeName(state.machine, state.path),
        state.target === null
          ? `${state.path} on machine ${machine}`
          : `#${state.target} (${state.path} on machine ${machine})`,
      ]
    }),
  )
  return overlaps.map((overlap) => ({
    ...overlap,
    otherWorktree: names.get(overlap.otherWorktree) ?? overlap.otherWorktree,
  }))
}
