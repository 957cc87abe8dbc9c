import { z } from 'zod'
import { loadMachineId } from '../config/machine-id.ts'
import { headBranch } from '../git/git-layout.ts'
import { targetsViewSchema } from '../room/protocol/targets-view.ts'
import { holdingWorktree } from '../room/services/captured-sessions.ts'
import { identifySession } from '../room/services/identify.ts'
import { projectTargetsInput } from '../room/services/project-targets.ts'
import { describeTargets, loadTargets } from '../room/services/targets.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { onlyReads } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/**
 * The room's presence tools: `room_targets` (who and where the room can address, as `sangam
 * targets`) and `room_identify` (claim a handle, as `sangam identify`), calling the same use cases.
 */

const targetsTool = defineTool({
  name: 'room_targets',
  title: 'Who and where the room can address',
  description:
    'Every agent session (handle, vendor, state online|idle|blocked|offline, worktree, machine and its name), every ' +
    'person once (handle, name, state, machines) and every worktree (#target, branch, uncommitted paths, active ' +
    'agents, days since its last commit), across machines. Address them in messages as @handle, @human or #target.',
  input: {},
  output: targetsViewSchema.shape,
  readOnly: true,
  async run(_input, context) {
    const project = context.project(onlyReads)
    const input = projectTargetsInput(project)
    const targets = await loadTargets(project.db, input)
    return {
      structured: targets,
      text: describeTargets(targets, input.machine),
    }
  },
})

const identifyTool = defineTool({
  name: 'room_identify',
  title: 'Claim a handle in the room',
  description:
    'Claim a handle (lowercase letters, digits, inner dashes) for your session, so others address you as @handle; ' +
    'it stays through role changes. Refused when another live session shows that handle. Your session is known ' +
    'when the host tells sangam (Claude Code); otherwise give it as session (an id, a unique prefix, or your current handle).',
  input: {
    handle: z.string().min(1).describe('the handle to claim, without @'),
    session: z
      .string()
      .min(1)
      .optional()
      .describe(
        'your session: id, unique prefix or current handle (default: the session running this server)',
      ),
  },
  output: {
    agent: z.object({ handle: z.string(), previous: z.string(), vendor: z.string(), sessionId: z.string() }),
  },
  readOnly: false,
  run(input, context) {
    const actor = context.actor()
    const session = input.session ?? actor.sessionId
    if (session === null || session === undefined) {
      throw new SangamError(
        ErrorCode.InvalidInput,
        'this MCP server does not know its session (the host did not say): give session, your session id or current handle',
      )
    }
    const project = context.project()
    const machine = loadMachineId(project.env.sangamHome)
    // The session asking is alive and here, running a turn: in the room even before its hooks fire.
    const worktree = holdingWorktree(project.repo.worktrees, context.projectDir)
    const self =
      input.session === undefined && actor.vendor !== null && actor.sessionId !== null
        ? {
            vendor: actor.vendor,
            sessionId: actor.sessionId,
            human: actor.human,
            worktree,
            branch: worktree === null ? null : headBranch(worktree),
            machine,
            state: 'online' as const,
          }
        : undefined
    const outcome = identifySession(project.db, session, input.handle, context.clock.now(), {
      here: { machine, worktrees: project.repo.worktrees },
      self,
    })
    const { agent } = outcome
    return { structured: outcome, text: `You are @${agent.handle} (was @${agent.previous}).` }
  },
})

export const roomPresenceTools: readonly AnyMcpTool[] = [targetsTool, identifyTool]
