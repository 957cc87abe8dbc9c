import { z } from 'zod'
import { outsideLine } from '../lanes/core/main-record.ts'
import { laneStatusViewSchema } from '../lanes/protocol/lane-status-view.ts'
import { laneStatus } from '../lanes/services/lane-status.ts'
import { syncOutcomes } from '../lanes/services/sync-result.ts'
import { openProjectLanes } from '../project/services/project-lanes.ts'
import { syncLaneWithTeam } from '../project/services/team-lanes.ts'
import { systemRandom } from '../shared/random.ts'
import type { McpContext } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/**
 * The lane tools: the same use cases as `sangam status` and `sangam sync`. `lane_sync` runs in the
 * session's project directory, which is the lane's worktree when the agent works in a lane.
 */

/** The project's lanes as the CLI opens them: with a team attached, its lock and its remote main. */
function lanes(context: McpContext) {
  return openProjectLanes(context.project(), {
    cwd: context.projectDir,
    log: context.log,
    random: systemRandom,
    pid: process.pid,
    nodeBinDir: null,
    actor: context.actor(),
    author: 'agent',
  })
}

const statusTool = defineTool({
  name: 'lane_status',
  title: 'Lanes and the integration lock',
  description:
    'Main, the integration lock (which lane holds it, for which task, since when), the main guard hooks, and every ' +
    'lane: state, head, dirty, commits behind main, its active semantic task and files, and its next safe step.',
  input: {},
  output: laneStatusViewSchema.shape,
  readOnly: true,
  async run(_input, context: McpContext) {
    const team = lanes(context)
    const status = await laneStatus(team.world, team)
    const lines = [
      `${status.mainBranch}: ${status.main?.slice(0, 12) ?? '(none)'}`,
      ...(status.mainOutside === null
        ? []
        : [`${outsideLine(status.mainOutside)}: tell your human; accepting or restoring it is theirs`]),
      status.lock === null
        ? 'lock: free'
        : `lock: lane ${status.lock.lane}${status.lock.task ? ` task ${status.lock.task}` : ''}${status.lock.stale ? ' (stale)' : ''}`,
      ...status.lanes.map((lane) => `${lane.name}: ${lane.state}, behind ${lane.behind}; next: ${lane.next}`),
    ]
    return {
      structured: status,
      text: lines.join('\n'),
    }
  },
})

const syncTool = defineTool({
  name: 'lane_sync',
  title: 'Sync this lane',
  description:
    'Moves the lane you work in to its next safe state: catch up with main, publish your work to main (directly, or ' +
    'by a clean git merge under the integration lock), or start a semantic task (your lane is reset to main, your ' +
    'work kept under refs/sangam/snapshots/, a task file says what to do); with an active task, publishes it after ' +
    'checking your commit and validation report. A refusal names its code and what to do next.',
  input: {},
  output: {
    lane: z.string(),
    outcome: z.enum(syncOutcomes),
    main: z.string(),
    task: z.object({ id: z.string(), file: z.string(), validationFile: z.string() }).nullable(),
    channel: z.string().nullable(),
    taskText: z.string().nullable(),
  },
  readOnly: false,
  async run(_input, context: McpContext) {
    const result = await syncLaneWithTeam(lanes(context), { cwd: context.projectDir })
    const text = [`${result.lane}: ${result.outcome}, main ${result.main.slice(0, 12)}`]
    if (result.task !== null)
      text.push(`task file: ${result.task.file}`, `validation report: ${result.task.validationFile}`)
    for (const warning of result.warnings) text.push(`warning: ${warning}`)
    return {
      structured: {
        lane: result.lane,
        outcome: result.outcome,
        main: result.main,
        task: result.task,
        channel: result.channel,
        taskText: result.taskText,
      },
      text: text.join('\n'),
    }
  },
})

/** `lane_status`, `lane_sync`. */
export const laneTools: readonly AnyMcpTool[] = [statusTool, syncTool]
