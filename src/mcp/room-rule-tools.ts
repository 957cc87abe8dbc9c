import { z } from 'zod'
import { loadMachineId } from '../config/machine-id.ts'
import { collisionsViewSchema } from '../room/protocol/board-view.ts'
import { alertViewSchema, ruleViewSchema } from '../room/protocol/rules-view.ts'
import { describeAlerts, loadAlerts } from '../room/services/alerts.ts'
import { collisionsLines, collisionsOnRead } from '../room/services/collisions-on-read.ts'
import { describeRules, listRules } from '../room/services/rules.ts'
import { systemRandom } from '../shared/random.ts'
import { type McpContext, onlyReads } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/**
 * The house rules for agents: read-only on purpose (docs/decisions.md D134). A rule at `refuse`
 * stops an agent's edit; a tool that let the agent lower it would make the refusal a suggestion.
 * People change rules with `sangam rules set`.
 */

const rulesTool = defineTool({
  name: 'room_rules',
  title: 'House rules',
  description:
    "The project's house rules, each at its rung (off, advise, warn, refuse): what it watches for, what its rung does, " +
    'and whether it is enforced (an edit it covers is denied). Rules are the team’s decision: ask @human in the room ' +
    'to change one (`sangam rules set <rule> <rung>`).',
  input: {},
  output: { rules: z.array(ruleViewSchema) },
  readOnly: true,
  run(_input, context: McpContext) {
    const rules = listRules(context.project(onlyReads).db)
    return { structured: { rules }, text: describeRules(rules) }
  },
})

const alertsTool = defineTool({
  name: 'room_alerts',
  title: 'Alerts',
  description:
    'What the room should look at now, most severe first: agents sharing a worktree, worktrees changing the same ' +
    'paths, stale worktrees, lease collisions (each at its rule’s rung), open decisions for a human, blockers and ' +
    'handoffs. Ids are stable: the same condition keeps its id.',
  input: {},
  output: { alerts: z.array(alertViewSchema), collisions: collisionsViewSchema },
  readOnly: true,
  async run(_input, context: McpContext) {
    const project = context.project(onlyReads)
    const collisions = await collisionsOnRead(project, { random: systemRandom })
    const alerts = await loadAlerts(project.db, {
      machine: loadMachineId(project.env.sangamHome, systemRandom),
      worktrees: project.repo.worktrees,
      now: project.clock.now(),
    })
    return {
      structured: { alerts, collisions },
      text: [describeAlerts(alerts), ...collisionsLines(collisions)].join('\n'),
    }
  },
})

/** The rule tools: `room_rules`, `room_alerts`. */
export const roomRuleTools: readonly AnyMcpTool[] = [rulesTool, alertsTool]
