import type { CommandSpec } from './command.ts'
import { briefCommand } from './commands/brief.ts'
import { claimCommand } from './commands/claim.ts'
import { connectionCommand } from './commands/connection.ts'
import { doctorCommand } from './commands/doctor.ts'
import { indexCommand } from './commands/index.ts'
import { initCommand } from './commands/init.ts'
import { installHooksCommand } from './commands/install-hooks.ts'
import { joinCommand } from './commands/join.ts'
import { leasesCommand } from './commands/leases.ts'
import { mcpCommand } from './commands/mcp.ts'
import { noteCommand } from './commands/note.ts'
import { releaseCommand } from './commands/release.ts'
import { searchCommand } from './commands/search.ts'
import { serveCommand } from './commands/serve.ts'
import { threadCommand } from './commands/thread.ts'
import { upCommand } from './commands/up.ts'
import { whoHasCommand } from './commands/who-has.ts'

/**
 * Every CLI command, in the order `--help` lists them. docs/cli.md has a table with one row per
 * entry here, kept equal by test/cli-docs.test.ts.
 */
export const commands: readonly CommandSpec[] = [
  initCommand,
  joinCommand,
  connectionCommand,
  installHooksCommand,
  upCommand,
  indexCommand,
  doctorCommand,
  briefCommand,
  searchCommand,
  threadCommand,
  noteCommand,
  mcpCommand,
  claimCommand,
  releaseCommand,
  whoHasCommand,
  leasesCommand,
  serveCommand,
]
