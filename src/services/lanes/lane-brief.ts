import { realpathSync } from 'node:fs'
import { readLock } from '../../store/lanes/integration-lock-table.ts'
import { hasLaneTables, readLanes, readLaneTask } from '../../store/lanes/lane-table.ts'
import type { BriefSectionSource } from '../memory/brief-section-source.ts'
import { laneRulesText } from './enter-lane.ts'

/**
 * The brief's lanes section (so the SessionStart context carries it): inside a lane, its rules
 * and its active task first; everywhere, the integration lock and the other lanes. Left out in a
 * project without lanes.
 */
export const laneBrief: BriefSectionSource = ({ db, cwd, now, git }) => {
  if (!hasLaneTables(db)) return []
  const lanes = readLanes(db)
  if (lanes.length === 0) return []
  const here = realCwd(cwd)
  const mine = lanes.find((lane) => here === lane.worktree || here.startsWith(`${lane.worktree}/`))
  const lock = readLock(db)
  const lines: string[] = []
  if (mine !== undefined) {
    const task = mine.task === null ? null : readLaneTask(db, mine.task)
    if (task !== null)
      lines.push(
        `Your lane ${mine.name} has an unfinished sync task ${task.id}: read ${task.file}, commit the union, write ${task.validationFile}, run sangam sync. Handle it before other work.`,
      )
    lines.push(
      ...laneRulesText(mine.name, git.mainBranch ?? 'main')
        .split('\n')
        .filter((line) => line.startsWith('- ') || line.startsWith('You ')),
    )
  }
  lines.push(
    lock === null
      ? 'Integration lock: free.'
      : `Integration lock: lane ${lock.lane} (${lock.owner})${lock.task ? `, task ${lock.task}` : ''}, for ${Math.max(0, Math.round((now - lock.since) / 60_000))} min.`,
  )
  for (const lane of lanes)
    if (lane !== mine)
      lines.push(`Lane ${lane.name} (${lane.owner}): ${lane.task ? `task ${lane.task}` : lane.state}.`)
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

function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd)
  } catch {
    return cwd
  }
}
