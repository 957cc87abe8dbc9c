import { gitOutputOrNull } from '../../git/git.ts'
import { writeMainRecord } from '../store/main-record-table.ts'
import { refCommit, writeRef } from './lane-git.ts'
import { laneRefused } from './lane-refused.ts'
import type { LaneWorld } from './lane-world.ts'
import { lookAtMain, type MainOutside, mainOutsideRefused, outsideRef } from './main-record.ts'

/**
 * `sync`'s side of the record of main (D300, D301): it builds on main only while main is where
 * sangam last moved it. A main moved outside sangam is kept under `refs/sangam/outside/<commit>`
 * (so a restore loses nothing) and refused `main-moved-outside` until a person accepts it
 * (`sync --accept-main <commit>`) or puts the recorded commit back.
 */

/** This machine's main now, or null when the branch is gone. */
export function mainHere(world: LaneWorld): string | null {
  return refCommit(world.root, `refs/heads/${world.mainBranch}`)
}

/** Refuses while main here is outside the record; a first look records main as it is. */
export function requireMainInStep(world: LaneWorld, actual: string | null): void {
  const outside = lookAtMain(world, actual, { adopt: true })
  if (outside === null) return
  throw mainOutsideRefused(outside, keepOutside(world, outside))
}

/** Keeps a main moved outside sangam under `refs/sangam/outside/`; the ref, or null when main is gone. */
export function keepOutside(world: LaneWorld, outside: MainOutside): string | null {
  if (outside.commit === null) return null
  const ref = outsideRef(outside.commit)
  writeRef(world.root, ref, outside.commit)
  return ref
}

/** The commit `wanted` names here (a full or abbreviated id, a ref), or null. */
export function resolveCommit(world: LaneWorld, wanted: string): string | null {
  if (wanted.startsWith('-')) return null
  return gitOutputOrNull(['rev-parse', '--verify', '--quiet', `${wanted}^{commit}`], world.root)
}

/**
 * `sync --accept-main <commit>` for this machine's main: when main here is outside the record and
 * `<commit>` names it, the record becomes main, accepted by this human (recorded in `sangam log`).
 * False when main here is in step (the commit may be the team remote's, which the team sync
 * accepts); a commit other than main's own is refused, so a person accepts what they looked at.
 */
export function acceptMainHere(world: LaneWorld, lane: string, wanted: string): boolean {
  const actual = mainHere(world)
  const outside = lookAtMain(world, actual, { adopt: true })
  if (outside === null || actual === null) return false
  const named = resolveCommit(world, wanted)
  if (named !== actual)
    throw laneRefused(
      'nothing-to-accept',
      `${wanted} is not ${world.mainBranch}'s commit: ${world.mainBranch} moved outside sangam to ${actual}${named === null ? `, and ${wanted} names no commit here` : ''}; nothing was accepted`,
      `look at it (git log ${outside.recorded.slice(0, 12)}..${actual.slice(0, 12)}), then accept that commit: sangam sync --accept-main ${actual.slice(0, 12)}`,
    )
  writeMainRecord(world.db, {
    branch: world.mainBranch,
    commit: actual,
    movingFrom: null,
    how: 'accepted',
    by: world.human,
    at: world.clock.now(),
  })
  world.record('main.accepted', lane, {
    where: 'here',
    commit: actual,
    recorded: outside.recorded,
    by: world.human,
  })
  return true
}
