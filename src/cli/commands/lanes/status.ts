import { laneStatus } from '../../../lanes/services/lane-status.ts'
import { outsideText } from '../../../lanes/services/main-record.ts'
import type { CommandRun } from '../../command.ts'
import { openLaneCommand } from './lane-world-for.ts'

export const run: CommandRun = async (ctx) => {
  const { project, world, team } = openLaneCommand(ctx, { createStore: false })
  try {
    const status = await laneStatus(world, team)
    const now = ctx.clock.now()
    const lines = [
      `${status.mainBranch}: ${status.main?.slice(0, 12) ?? '(none)'}`,
      status.lock === null
        ? 'lock: free'
        : `lock: lane ${status.lock.lane} (${status.lock.owner})${status.lock.task ? ` task ${status.lock.task}` : ''}, ${Math.round((now - status.lock.since) / 60_000)} min${status.lock.stale ? ', stale (sync --takeover --reason may take it over)' : ''}`,
      status.guard.installed ? 'guard: installed' : `guard: missing ${status.guard.missing.join(', ')}`,
      ...(status.mainOutside === null ? [] : [outsideText(status.mainOutside)]),
      status.lanes.length === 0 ? 'lanes: none (sangam lane <name> creates one)' : 'lanes:',
    ]
    for (const lane of status.lanes) {
      lines.push(
        `  ${lane.name}: ${lane.state} head=${lane.head?.slice(0, 12) ?? '-'} dirty=${lane.dirty} behind=${lane.behind}${lane.task ? ` task=${lane.task.id}` : ''}`,
      )
      if (lane.task !== null)
        lines.push(
          `    Task file: ${lane.task.file}`,
          `    Validation file: ${lane.task.validationFile}`,
          `    Snapshot ref: ${lane.task.snapshotRef} (${lane.task.snapshot ?? 'missing'})`,
          `    Base ref: ${lane.task.baseRef} (${lane.task.base ?? 'missing'})`,
        )
      lines.push(`    Next step: ${lane.next}`)
    }
    return { json: status, text: lines.join('\n') }
  } finally {
    project.close()
  }
}
