import { describeLease, describeLogEntry } from '../../../leases/core/describe.ts'
import type { LeaseSettings } from '../../../leases/protocol/lease.ts'
import { resolveActor } from '../../../leases/services/actor.ts'
import { leaseOverview } from '../../../leases/services/queries.ts'
import { writeLeaseSettings } from '../../../leases/services/settings.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { setProjectOption } from '../../../project/services/project-options.ts'
import { formatDuration } from '../../../shared/duration.ts'
import type { CommandRun, ParsedOptions } from '../../command.ts'
import type { leasesInput } from './inputs.ts'

export const run: CommandRun<typeof leasesInput> = async (ctx, _args, options) => {
  const changes = settingChanges(options)
  // Showing the leases creates no store; changing a setting is a write and starts the project.
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    createStore: Object.keys(changes).length > 0 || options.autoLease !== undefined,
  })
  try {
    if (Object.keys(changes).length > 0) writeLeaseSettings(project.db, changes)
    // The auto-lease rung is the lease-collision rule, a team option: set as rules set sets it.
    if (options.autoLease !== undefined)
      setProjectOption(project.db, 'leases.auto-lease', options.autoLease, {
        actor: resolveActor(ctx.env, project.human),
        now: ctx.clock.now(),
      })
    const now = ctx.clock.now()
    const overview = leaseOverview(project.db, now)
    return { json: overview, text: overviewText(overview, now) }
  } finally {
    project.close()
  }
}

function settingChanges(options: ParsedOptions<typeof leasesInput>): Partial<LeaseSettings> {
  const changes: Partial<LeaseSettings> = {}
  if (options.autoLeaseTtl !== undefined) changes.autoLeaseTtlMs = options.autoLeaseTtl
  if (options.claimTtl !== undefined) changes.claimTtlMs = options.claimTtl
  if (options.sessionEnd !== undefined) changes.releaseOnSessionEnd = options.sessionEnd === 'release'
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
