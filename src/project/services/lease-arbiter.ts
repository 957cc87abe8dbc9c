import { projectDir } from '../../config/data-paths.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { LeaseArbiter } from '../../leases/services/arbiter.ts'
import { type LocalArbiterOptions, LocalLeaseArbiter } from '../../leases/services/local-arbiter.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/db.ts'
import { readAttachment } from '../../sync/services/attachment.ts'
import { type ServerArbiterOptions, ServerLeaseArbiter } from '../../sync/services/server-arbiter.ts'

export interface ArbiterOptions {
  readonly local?: LocalArbiterOptions | undefined
  readonly server?: ServerArbiterOptions | undefined
}

/**
 * Who arbitrates this project's leases: its team server while the replica is attached, else the
 * replica itself. Every caller that claims, releases or records an edit (the lease use cases, the
 * hooks) asks here, so attaching switches them all at once. The choice is composed here, above both
 * features: leases know only the `LeaseArbiter` seam, sync implements it for a team's server.
 */
export function chooseLeaseArbiter(
  db: Db,
  projectDir: string,
  clock: Clock,
  options: ArbiterOptions = {},
): LeaseArbiter {
  const attachment = readAttachment(projectDir)
  if (attachment === null) return new LocalLeaseArbiter(db, clock, options.local)
  return new ServerLeaseArbiter(db, attachment, clock, options.server)
}

/** `chooseLeaseArbiter` for an opened project (the CLI, the MCP server, the dashboard). */
export function projectLeaseArbiter(project: ProjectContext, options: ArbiterOptions = {}): LeaseArbiter {
  const dir = projectDir(project.env.sangamHome, project.repo.projectId)
  return chooseLeaseArbiter(project.db, dir, project.clock, options)
}
