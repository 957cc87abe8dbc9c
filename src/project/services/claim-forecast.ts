import { loadMachineId } from '../../config/machine-id.ts'
import { findMainBranch } from '../../git/branch.ts'
import { touchedPaths } from '../../git/touched-paths.ts'
import { type WorkingStateMemo, workingStates } from '../../git/working-state.ts'
import { worktreeHeads } from '../../git/worktree-heads.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { readLanes } from '../../lanes/store/lane-table.ts'
import { matchLeasePath } from '../../leases/services/matcher.ts'
import { projectDaemonRound, statesLine, type WorktreeStatesSeen } from '../../room/services/daemon-round.ts'
import { machineNames } from '../../room/services/machine-names.ts'
import {
  type MemoAnswer,
  readKeptStates,
  readMemo,
  writeKeptStates,
  writeMemo,
} from '../../room/store/ready-memo-table.ts'
import { readMachineWorktreeStates, readWorktreeStates } from '../../room/store/worktree-state-table.ts'
import { isSangamError } from '../../shared/sangam-error.ts'
import type { ClaimForecast } from '../protocol/claim-view.ts'

export type { ClaimForecast } from '../protocol/claim-view.ts'

const maxPathsShown = 20

/** A claim's forecast, and where this machine's worktree states in it came from. */
export interface ClaimForecasts {
  readonly forecasts: ClaimForecast[]
  readonly states: WorktreeStatesSeen
}

/**
 * This machine's other worktrees are read live (their working state over HEAD against the merge
 * base with main: the picture `ready` computes, without the merges), or, while `sangam up`'s
 * latest round is fresh, taken from the rows it wrote (`states` says so, with their age: D432,
 * D435); other machines' from the worktree states the room shares (`room.worktree`), as fresh as
 * their daemons published them. The claimer's own worktree is left out. A worktree git cannot read
 * (gone, no shared history) is skipped: the forecast is advice and never stops a claim.
 */
export async function forecastClaim(
  project: ProjectContext,
  patterns: readonly string[],
  ownWorktree: string,
): Promise<ClaimForecasts> {
  const covered = (paths: readonly string[]) =>
    paths.filter((path) => patterns.some((pattern) => matchLeasePath(pattern, path)))
  const lanes = readLanes(project.db)
  const laneAt = (path: string) => lanes.find((lane) => lane.worktree === path)?.name ?? null
  const machine = loadMachineId(project.env.sangamHome)
  const round = projectDaemonRound(project)
  const kept = new Map(
    round === null
      ? []
      : readMachineWorktreeStates(project.db, round.machine).flatMap((row) =>
          row.truncated ? [] : [[row.path, row] as const],
        ),
  )
  const forecasts: ClaimForecast[] = []
  const heads = (await readable(async () => worktreeHeads(project.repo.root))) ?? []
  const local = heads.filter(
    (head) => head.path !== ownWorktree && !head.missing && !head.bare && head.head !== null,
  )
  // A row of the HEAD the worktree still has (read from files) is its state as of the round.
  const fromRound = local.flatMap((head) => {
    const row = kept.get(head.path)
    return row !== undefined && row.head === head.head ? [row] : []
  })
  const known = new Set(fromRound.map((row) => row.path))
  for (const row of fromRound) {
    if (row.status !== 'present') continue
    const paths = covered(row.changes.map((change) => change.path))
    if (paths.length === 0) continue
    forecasts.push(localForecast(row.path, row.branch, laneAt(row.path), paths))
  }
  const toRead = local.filter((head) => !known.has(head.path))
  const main = toRead.length === 0 ? null : findMainBranch(project.repo.root)
  if (main !== null) {
    const { db } = project
    const now = project.clock.now()
    const atHead = toRead.map((head) => ({ path: head.path, head: head.head as string }))
    // The memo `ready` and the daemon's rounds fill: a dirty worktree's kept state (D422), and
    // what a commit changes since main's (`touched`), so a worktree read before costs one status.
    const keptStates: WorkingStateMemo = {
      read: (keys) => readKeptStates(db, keys, now),
      write: (entries) => writeKeptStates(db, entries, now),
    }
    const states = (await readable(() => workingStates(project.repo.root, atHead, 4, keptStates))) ?? []
    const changing = toRead.flatMap((head, index) => {
      const state = states[index]
      // A clean worktree at main's commit has nothing of its own: no git for it.
      return state == null || state.commit === main.commit ? [] : [{ head, commit: state.commit }]
    })
    const memo = readMemo(
      db,
      'touched',
      changing.map(({ commit }) => [main.commit, commit] as const),
      now,
    )
    const fresh: { left: string; right: string; answer: MemoAnswer }[] = []
    for (const { head, commit } of changing) {
      let changed = memo.get(`${main.commit}\n${commit}`)?.paths ?? null
      if (changed === null) {
        changed = await touchedPaths(project.repo.root, main.commit, commit)
        if (changed !== null)
          fresh.push({ left: main.commit, right: commit, answer: { clean: true, paths: changed } })
      }
      const paths = covered(changed ?? [])
      if (paths.length > 0) forecasts.push(localForecast(head.path, head.branch, laneAt(head.path), paths))
    }
    writeMemo(db, 'touched', fresh, now)
  }
  const names = machineNames(project.db, null)
  for (const state of readWorktreeStates(project.db)) {
    if (state.machine === machine || state.status !== 'present') continue
    const paths = covered(state.changes.map((change) => change.path))
    if (paths.length === 0) continue
    forecasts.push({
      worktree: state.path,
      machine: state.machine,
      machineName: names.label(state.machine),
      branch: state.branch,
      lane: null,
      paths: paths.slice(0, maxPathsShown),
      pathCount: paths.length,
    })
  }
  const states: WorktreeStatesSeen =
    round === null || fromRound.length === 0
      ? { source: 'git', at: null, ageMs: 0 }
      : { source: 'daemon', at: round.at, ageMs: Math.max(0, project.clock.now() - round.at) }
  return { forecasts, states }
}

function localForecast(
  worktree: string,
  branch: string | null,
  lane: string | null,
  paths: readonly string[],
): ClaimForecast {
  return {
    worktree,
    machine: null,
    machineName: null,
    branch,
    lane,
    paths: paths.slice(0, maxPathsShown),
    pathCount: paths.length,
  }
}

/** The words `claim` and `ctx_claim` add after their outcome; empty when no one else is there. */
export function describeForecast({ forecasts, states }: ClaimForecasts): string {
  if (forecasts.length === 0) return ''
  const lines = forecasts.map((forecast) => {
    const who = forecast.lane !== null ? `lane ${forecast.lane}` : (forecast.branch ?? 'a detached worktree')
    const where =
      forecast.machine === null
        ? forecast.worktree
        : `${forecast.worktree} on ${forecast.machineName ?? forecast.machine}`
    const more =
      forecast.pathCount > forecast.paths.length
        ? ` and ${forecast.pathCount - forecast.paths.length} more`
        : ''
    return `  ${who} (${where}): ${forecast.paths.join(', ')}${more}`
  })
  const age = statesLine(states)
  return ['Already changed elsewhere (committed or not), so expect a merge with it:', ...lines]
    .concat(age === null ? [] : [`  ${age}`])
    .join('\n')
}

async function readable<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (error) {
    if (isSangamError(error) && error.code === 'GIT_FAILED') return null
    throw error
  }
}
