import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/database.ts'
import type { LeaseArbiter } from '../leases/arbiter.ts'
import { type LocalArbiterOptions, LocalLeaseArbiter } from '../leases/local-arbiter.ts'
import { readAttachment } from './attachment.ts'
import { type ServerArbiterOptions, ServerLeaseArbiter } from './server-arbiter.ts'

/**
 * Who arbitrates this project's leases: its team server while the replica is attached, else the
 * replica itself. Every caller that claims, releases or records an edit (CLI, MCP tools, hooks)
 * asks here, so attaching switches them all at once.
 */
export function chooseLeaseArbiter(
  db: Db,
  projectDir: string,
  clock: Clock,
  options: { readonly local?: LocalArbiterOptions; readonly server?: ServerArbiterOptions } = {},
): LeaseArbiter {
  const attachment = readAttachment(projectDir)
  if (attachment === null) return new LocalLeaseArbiter(db, clock, options.local)
  return new ServerLeaseArbiter(db, attachment, clock, options.server)
}
