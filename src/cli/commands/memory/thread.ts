import { renderThread } from '../../../services/memory/render.ts'
import { MemoryThread } from '../../../services/memory/thread.ts'
import { openProject } from '../../../services/project-context.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'

export const run: CommandRun = async (ctx, args, options) => {
  const bounds = { before: count('--before', options.before), after: count('--after', options.after) }
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const result = new MemoryThread(project.db).thread(args[0] ?? '', bounds)
    return { json: result, text: renderThread(result, ctx.clock.now()) }
  } finally {
    project.close()
  }
}

/** A count of events: decimal digits only (`0x10` and `1e2` are refused, not read as numbers). */
function count(flag: string, value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  if (/^\s*\d{1,6}\s*$/.test(value)) return Number(value)
  throw new SangamError(
    ErrorCode.InvalidInput,
    `${flag} must be a whole number of events; got "${value.slice(0, 40)}"`,
  )
}
