import { resolveActor } from '../../../leases/services/actor.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { setRule } from '../../../room/services/rule-change.ts'
import { describeRules, listRules } from '../../../room/services/rules.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import type { rulesInput } from './inputs.ts'

export const run: CommandRun<typeof rulesInput> = async (ctx, { action, rule, rung }) => {
  // Checked before the store opens: a mistyped command line changes nothing anywhere.
  if (action !== undefined && (action !== 'set' || rule === undefined || rung === undefined))
    throw new SangamError(
      ErrorCode.InvalidInput,
      'rules takes no arguments (list the rules) or set <rule> <rung> (change one)',
    )
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, { createStore: action === 'set' })
  try {
    const rules =
      action === 'set' && rule !== undefined && rung !== undefined
        ? setRule(project.db, rule, rung, {
            actor: resolveActor(ctx.env, project.human),
            now: ctx.clock.now(),
          })
        : listRules(project.db)
    return { json: { rules }, text: describeRules(rules) }
  } finally {
    project.close()
  }
}
