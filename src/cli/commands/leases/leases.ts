import { formatDuration } from '../../../core/duration.ts'
import { describeLease, describeLogEntry } from '../../../core/leases/describe.ts'
import { parseTtl } from '../../../core/leases/expiry.ts'
import type { LeaseSettings } from '../../../protocol/lease.ts'
import { leaseOverview } from '../../../services/leases/queries.ts'
import { writeLeaseSettings } from '../../../services/leases/settings.ts'
import { openProject } from '../../../services/project-context.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'

export const run: CommandRun = async (ctx, _args, options) => {
  const changes = await settingChanges(options)
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    if (Object.keys(changes).length > 0) writeLeaseSettings(project.db, changes)
    const now = ctx.clock.now()
    const overview = leaseOverview(project.db, now)
    return { json: overview, text: overviewText(overview, now) }
  } finally {
    project.close()
  }
}

async function settingChanges(options: Record<string, unknown>): Promise<Partial<LeaseSettings>> {
  const changes: Partial<LeaseSettings> = {}
  if (typeof options.autoLease === 'string') {
    // The lease schemas load zod (half of a plain listing's start-up): only this option needs them.
    const { autoLeaseRungSchema } = await import('../../../protocol/lease.ts')
    const rung = autoLeaseRungSchema.safeParse(options.autoLease)
    if (!rung.success)
      throw usage(`--auto-lease is one of off, advise, warn, refuse; got "${options.autoLease}"`)
    changes.autoLease = rung.data
  }
  if (typeof options.autoLeaseTtl === 'string')
    changes.autoLeaseTtlMs = parseTtl(options.autoLeaseTtl, '--auto-lease-ttl')
  if (typeof options.claimTtl === 'string') changes.claimTtlMs = parseTtl(options.claimTtl, '--claim-ttl')
  if (typeof options.sessionEnd === 'string') {
    if (options.sessionEnd !== 'release' && options.sessionEnd !== 'keep') {
      throw usage(`--session-end is release or keep; got "${options.sessionEnd}"`)
    }
    changes.releaseOnSessionEnd = options.sessionEnd === 'release'
  }
  return changes
}

function overviewText(overview: ReturnType<typeof leaseOverview>, now: number): string {
  const { leases, history, settings } = overview
  const lines = leases.length === 0 ? ['no live leases'] : leases.map((lease) => describeLease(lease, now))
  if (history.length > 0)
    lines.push('', 'last 24 hours:', ...history.map((entry) => `  ${describeLogEntry(entry, now)}`))
  lines.push(
    '',
    `settings: auto-lease ${settings.autoLease} (${formatDuration(settings.autoLeaseTtlMs)}), ` +
      `claims ${formatDuration(settings.claimTtlMs)}, ` +
      `session end ${settings.releaseOnSessionEnd ? 'releases' : 'keeps'} its leases`,
  )
  return lines.join('\n')
}

function usage(message: string): SangamError {
  return new SangamError(ErrorCode.Usage, message)
}
