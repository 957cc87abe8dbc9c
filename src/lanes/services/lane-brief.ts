import { realpathSync } from 'node:fs'
import { relative } from 'node:path'
import type { BriefContext, BriefSectionSource } from '../../memory/services/brief-section-source.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import type { Db } from '../../store/db.ts'
import { lockText } from '../core/board-lanes.ts'
import { laneOptions } from '../core/settings.ts'
import { isLockStale } from '../core/sync-ladder.ts'
import { readLock } from '../store/integration-lock-table.ts'
import { hasLaneTables, type LaneRow, readLanes } from '../store/lane-table.ts'
import { readTeamLockSeen, type TeamLockSeen } from '../store/team-lock-seen-table.ts'
import { laneView } from './lane-status.ts'

/**
 * The brief's lanes section (so the SessionStart context carries it), most important first: inside
 * a lane, its state and next step as `sangam status` reads them; who holds the integration lock;
 * inside a lane, its rules in short; the other lanes on one line. Left out in a project without
 * lanes. Only the reader's own lane asks git (a `git status`, and a `rev-list` when main has
 * moved); the rest is the store's.
 */
export function laneBrief(attached: (db: Db) => boolean): BriefSectionSource {
  return (context) => lanesSection(context, attached)
}

/**
 * `attached`: whether this replica is attached to a team server. Sync's state says; the project,
 * which composes both, asks it (lanes sit below sync).
 */
const lanesSection = (
  { db, cwd, now, git }: BriefContext,
  attached: (db: Db) => boolean,
): ReturnType<BriefSectionSource> => {
  if (!hasLaneTables(db)) return []
  const lanes = readLanes(db)
  if (lanes.length === 0) return []
  const here = realCwd(cwd)
  const mine = lanes.find((lane) => here === lane.worktree || here.startsWith(`${lane.worktree}/`))
  const lock = readLock(db)
  // Attached to a team server, the lock is the server's (D216): a hook asks no server, so the
  // brief says who held it when this machine last asked (D307), rather than reporting the unused
  // local lock as free.
  const team = attached(db)
  const seen = team ? readTeamLockSeen(db) : null
  const lines: string[] = []
  if (mine !== undefined) {
    // Another machine's lane is `<lane>@<machine>`, as the lane commands name it (D223).
    const held = seen?.holder ?? null
    const lockLane = team
      ? held === null
        ? null
        : held.elsewhere
          ? `${held.lane}@${held.machine}`
          : held.lane
      : (lock?.lane ?? null)
    lines.push(...ownLaneLines(db, mine, git.mainHead, lockLane))
  }
  if (team) lines.push(teamLockLine(seen, now))
  else {
    const staleAfterMs = readOptionGroup(db, laneOptions).lockStaleMinutes * 60_000
    const held = lock === null ? null : { ...lock, stale: isLockStale(lock.heartbeatAt, now, staleAfterMs) }
    lines.push(
      `Integration lock: ${lockText(held, now)}${held?.stale === true ? ': sangam sync --takeover --reason may take it' : ''}.`,
    )
  }
  if (mine !== undefined) lines.push(...laneRules(git.mainBranch ?? 'main'))
  const others = lanes.filter((lane) => lane !== mine)
  if (others.length > 0)
    lines.push(
      `${mine === undefined ? 'Lanes' : 'Other lanes'}: ${others
        .map(
          (lane) =>
            `${lane.name} (${[lane.owner, ...(lane.task === null ? [] : [`task ${lane.task}`])].join(', ')})`,
        )
        .join('; ')}.`,
    )
  return [
    {
      key: 'lanes',
      title: mine === undefined ? 'Lanes' : `Lane ${mine.name}`,
      lines,
      total: lines.length,
      empty: 'no lanes',
    },
  ]
}

/**
 * `You work in lane alice: dirty, behind 2. Next: run sangam sync to publish this work.`, and with
 * a task its files on lines of their own, relative to the lane (where its agent works), so no cut
 * of a long line ever takes the path.
 */
function ownLaneLines(db: Db, lane: LaneRow, main: string | null, lockLane: string | null): string[] {
  const view = laneView({ db, root: lane.worktree }, lane, main, lockLane)
  const facts = view.task !== null && view.state === 'task' ? [] : [view.state]
  if (view.behind > 0) facts.push(`behind main by ${view.behind}`)
  if (view.task !== null) facts.push(`task ${view.task.id}`)
  const lines = [
    `You work in lane ${lane.name} (branch ${lane.branch}): ${facts.join(', ')}. Next: ${view.next}.`,
  ]
  if (view.task !== null)
    lines.push(
      `Task file: ${relative(lane.worktree, view.task.file)}`,
      `Validation report: ${relative(lane.worktree, view.task.validationFile)}`,
    )
  return lines
}

/**
 * The team's lock as this machine last heard it from the server (status, sync, the board and the
 * daemon ask it), with how long ago: who holds it, their lane and machine (D307).
 */
function teamLockLine(seen: TeamLockSeen | null, now: number): string {
  if (seen === null)
    return 'Integration lock: kept by the team server, not asked from this machine yet; sangam status asks it.'
  const ago = `${Math.max(0, Math.round((now - seen.seenAt) / 60_000))} min ago`
  const holder = seen.holder
  if (holder === null)
    return `Integration lock: free; the team server said so ${ago} (sangam status asks again).`
  const task = holder.task === null ? '' : `, task ${holder.task}`
  const where = holder.elsewhere ? `on machine ${holder.machine}` : 'on this machine'
  // Who first: a line longer than the brief allows loses its end, never the holder.
  return `Integration lock: lane ${holder.lane} (${holder.owner}) ${where}${task}; the team server said so ${ago}.`
}

/** The lane's rules, short (the whole text is `laneRulesText`, in AGENTS.md where no hook briefs). */
function laneRules(mainBranch: string): string[] {
  return [
    `Never move ${mainBranch} by hand (no merge into it, reset, rebase or push): only sangam sync publishes, and it moves only this lane and ${mainBranch}.`,
    'sync publishes directly or by a clean git merge under the lock; on a conflict it starts a semantic task: make the union, stop and ask on a contradiction.',
    'sync says integration-busy: keep working and retry later. An unfinished task comes before other work.',
  ]
}

function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd)
  } catch {
    return cwd
  }
}
