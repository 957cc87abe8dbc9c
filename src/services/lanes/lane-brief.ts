import { realpathSync } from 'node:fs'
import { laneOptions } from '../../core/lanes/settings.ts'
import { isLockStale } from '../../core/lanes/sync-ladder.ts'
import { lockText } from '../../core/room/board-lanes.ts'
import type { Db } from '../../store/db.ts'
import { readLock } from '../../store/lanes/integration-lock-table.ts'
import { hasLaneTables, type LaneRow, readLanes } from '../../store/lanes/lane-table.ts'
import { readSyncState } from '../../store/sync/state-table.ts'
import type { BriefSectionSource } from '../memory/brief-section-source.ts'
import { readOptionGroup } from '../options/option-store.ts'
import { laneView } from './lane-status.ts'

/**
 * The brief's lanes section (so the SessionStart context carries it), most important first: inside
 * a lane, its state and next step as `sangam status` reads them; who holds the integration lock;
 * inside a lane, its rules in short; the other lanes on one line. Left out in a project without
 * lanes. Only the reader's own lane asks git (a `git status`, and a `rev-list` when main has
 * moved); the rest is the store's.
 */
export const laneBrief: BriefSectionSource = ({ db, cwd, now, git }) => {
  if (!hasLaneTables(db)) return []
  const lanes = readLanes(db)
  if (lanes.length === 0) return []
  const here = realCwd(cwd)
  const mine = lanes.find((lane) => here === lane.worktree || here.startsWith(`${lane.worktree}/`))
  const lock = readLock(db)
  // Attached to a team server, the lock is the server's (D216): a hook asks no server, so the
  // brief says where to look rather than reporting the unused local lock as free.
  const team = readSyncState(db) !== null
  const lines: string[] = []
  if (mine !== undefined) lines.push(ownLaneLine(db, mine, git.mainHead, team ? null : (lock?.lane ?? null)))
  if (team) lines.push('Integration lock: the team server holds it; sangam status or sangam board shows who.')
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

/** `You work in lane alice: dirty, behind 2. Next: run sangam sync to publish this work.` */
function ownLaneLine(db: Db, lane: LaneRow, main: string | null, lockLane: string | null): string {
  const view = laneView({ db, root: lane.worktree }, lane, main, lockLane)
  const facts = view.task !== null && view.state === 'task' ? [] : [view.state]
  if (view.behind > 0) facts.push(`behind main by ${view.behind}`)
  if (view.task !== null) facts.push(`task ${view.task.id}`)
  return `You work in lane ${lane.name} (branch ${lane.branch}): ${facts.join(', ')}. Next: ${view.next}.`
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
