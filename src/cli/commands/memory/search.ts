import type { EventKind, Vendor } from '../../../protocol/event.ts'
import { renderSearch } from '../../../services/memory/render.ts'
import { MemorySearch } from '../../../services/memory/search.ts'
import { openProject } from '../../../services/project-context.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'

export const run: CommandRun = async (ctx, args, options) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const result = new MemorySearch(project.db, ctx.clock).search({
      text: args.join(' '),
      vendor: await parseVendor(stringOption(options.vendor)),
      kinds: await parseKinds(stringOption(options.kind)),
      sessionId: stringOption(options.session),
      branch: stringOption(options.branch),
      since: stringOption(options.since),
      until: stringOption(options.until),
      limit: parseLimit(stringOption(options.limit)),
    })
    return { json: result, text: renderSearch(result, ctx.clock.now()) }
  } finally {
    project.close()
  }
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

// The event schemas load zod (a third of a plain search's start-up), so only the options that
// name a vendor or kinds load them.
async function parseVendor(value: string | undefined): Promise<Vendor | undefined> {
  if (value === undefined) return undefined
  const { vendorSchema } = await import('../../../protocol/event.ts')
  const parsed = vendorSchema.safeParse(value.trim().toLowerCase())
  if (parsed.success) return parsed.data
  throw new SangamError(
    ErrorCode.InvalidInput,
    `--vendor must be one of ${vendorSchema.options.join(', ')}; got "${value}"`,
  )
}

async function parseKinds(value: string | undefined): Promise<EventKind[] | undefined> {
  if (value === undefined) return undefined
  const { eventKindSchema } = await import('../../../protocol/event.ts')
  return value.split(',').map((raw) => {
    const parsed = eventKindSchema.safeParse(raw.trim().toLowerCase().replace('-', '_'))
    if (parsed.success) return parsed.data
    throw new SangamError(
      ErrorCode.InvalidInput,
      `--kind takes ${eventKindSchema.options.join(', ')} (comma-separated); got "${raw.trim()}"`,
    )
  })
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const limit = Number(value)
  if (Number.isInteger(limit)) return limit
  throw new SangamError(ErrorCode.InvalidInput, `--limit must be a whole number; got "${value}"`)
}
