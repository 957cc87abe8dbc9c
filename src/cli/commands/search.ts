import { type EventKind, eventKindSchema, type Vendor, vendorSchema } from '../../protocol/event.ts'
import { renderSearch } from '../../services/memory-render.ts'
import { MemorySearch } from '../../services/memory-search.ts'
import { openProject } from '../../services/project-context.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { CommandSpec } from '../command.ts'

export const searchCommand: CommandSpec = {
  name: 'search',
  summary: 'Search what agents and humans said and did (all words must match; "quoted phrases")',
  arguments: [
    { name: 'query', description: 'words, or "a phrase" in quotes', required: true, variadic: true },
  ],
  options: [
    { flags: '--vendor <vendor>', description: 'only events from claude, codex or sangam (notes)' },
    {
      flags: '--kind <kinds>',
      description:
        'only these kinds, comma-separated: human, assistant, thinking, tool_call, tool_output, system, note',
    },
    { flags: '--session <id>', description: 'only events of this session' },
    { flags: '--branch <name>', description: 'only events recorded on this branch' },
    { flags: '--since <when>', description: 'from: 14d, 12h, 30m, an ISO date, or all (default 14d)' },
    { flags: '--until <when>', description: 'before: same forms as --since' },
    { flags: '--limit <n>', description: 'at most this many hits, 1–200 (default 20)' },
  ],
  async run(ctx, args, options) {
    const project = openProject(ctx.env, ctx.cwd, ctx.clock)
    try {
      const result = new MemorySearch(project.db, ctx.clock).search({
        text: args.join(' '),
        vendor: parseVendor(stringOption(options.vendor)),
        kinds: parseKinds(stringOption(options.kind)),
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
  },
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function parseVendor(value: string | undefined): Vendor | undefined {
  if (value === undefined) return undefined
  const parsed = vendorSchema.safeParse(value.trim().toLowerCase())
  if (parsed.success) return parsed.data
  throw new SangamError(
    ErrorCode.InvalidInput,
    `--vendor must be one of ${vendorSchema.options.join(', ')}; got "${value}"`,
  )
}

function parseKinds(value: string | undefined): EventKind[] | undefined {
  if (value === undefined) return undefined
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
