import { laneSandboxWarning } from '../../../agents/codex/install/codex-sandbox.ts'
import { readLane } from '../../../lanes/store/lane-table.ts'
import { syncLaneWithTeam } from '../../../project/services/team-lanes.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import type { syncInput } from './inputs.ts'
import { openLaneCommand } from './lane-world-for.ts'

const words: Record<string, string> = {
  'already-synced': 'already synced with',
  'caught-up': 'caught up to',
  'no-changes': 'no changes to sync; main is',
  'published-direct': 'published directly: main is now',
  'published-merge': 'published with a git merge: main is now',
  'task-started': 'started a semantic merge task; main stays',
  'published-task': 'published its task: main is now',
}

export const run: CommandRun<typeof syncInput> = async (ctx, _args, options) => {
  const reason = options.reason?.trim() ?? ''
  if (options.takeover && reason === '')
    throw new SangamError(
      ErrorCode.Usage,
      'sync --takeover needs --reason "…": it is recorded and shown to the lock\'s owner',
    )
  const { project, world, team, cwd } = openLaneCommand(ctx)
  try {
    const acceptMain = options.acceptMain?.trim()
    if (acceptMain === '')
      throw new SangamError(
        ErrorCode.Usage,
        'sync --accept-main needs the commit sync named (sangam status shows it)',
      )
    const result = await syncLaneWithTeam(team, {
      cwd,
      takeover: options.takeover ? { reason } : undefined,
      acceptMain,
    })
    const lines = [`${result.lane}: ${words[result.outcome]} ${result.main.slice(0, 12)}`]
    if (result.takeover !== null)
      lines.unshift(
        `took the integration lock over from lane ${result.takeover.from}; its work is saved under ${result.takeover.backupRefs.join(', ')}`,
      )
    if (result.task !== null && result.outcome === 'task-started') {
      lines.push(`Task file: ${result.task.file}`, `Validation report: ${result.task.validationFile}`)
      lines.push(
        result.channel === 'printed'
          ? 'This lane has no agent: the task is yours.'
          : `Handed to the lane's agent through ${result.channel}.`,
      )
      if (result.taskText !== null) lines.push('', result.taskText)
    }
    // A task handed to a Codex that cannot commit it is refused at the next sync: say why now (D225).
    const synced = result.outcome === 'task-started' ? readLane(world.db, result.lane) : null
    const sandboxWarning =
      synced === null ? null : laneSandboxWarning(synced.agent, ctx.env.codexHome, synced.worktree)
    const warnings = [...result.warnings, ...(sandboxWarning === null ? [] : [sandboxWarning])]
    if (!options.json) for (const warning of warnings) ctx.stderr.write(`warning: ${warning}\n`)
    return { json: { ...result, warnings }, text: lines.join('\n') }
  } finally {
    project.close()
  }
}
