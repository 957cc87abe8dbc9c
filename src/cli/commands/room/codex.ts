import { dirname } from 'node:path'
import { launchCodex } from '../../../agents/codex/services/codex-launch.ts'
import { forgetCodexLauncher, listCodexEndpoints } from '../../../agents/codex/store/codex-endpoint-table.ts'
import { findVendorCli } from '../../../delivery/services/vendor-cli.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import type { codexInput } from './inputs.ts'

/**
 * `codex [args…]`: Codex in this terminal, its app-server on a private socket under the data dir,
 * so a tag in the room can start a turn in the session while it is open (wake in place). The
 * session's hooks record the endpoint; when Codex ends, the server stops and the endpoint is
 * forgotten. The exit code is Codex's.
 */
export const run: CommandRun<typeof codexInput> = async (ctx, args) => {
  // Opened first so that a directory that is no project fails before Codex starts, and so that the
  // store is migrated before the session's first hook writes to it.
  openProject(ctx.env, ctx.cwd, ctx.clock).close()
  // Found where delivery finds it (PATH, then the usual install places).
  const codex = findVendorCli('codex', {
    path: ctx.env.path,
    home: ctx.env.vendorCliEnv.HOME ?? dirname(ctx.env.sangamHome),
    nodeBinDir: dirname(process.execPath),
    env: ctx.env.vendorCliEnv,
  })
  if (codex.path === null) {
    throw new SangamError(
      ErrorCode.VendorCliUnavailable,
      'codex is not installed: not on PATH nor in ~/.local/bin, /usr/local/bin, /opt/homebrew/bin, beside node or in ~/.npm-global/bin (npm install -g @openai/codex)',
    )
  }
  const codexBin = codex.path
  const launched = await launchCodex({
    codexBin,
    args: args.args,
    cwd: ctx.cwd,
    sangamHome: ctx.env.sangamHome,
    env: ctx.env.vendorCliEnv,
    launcherPid: process.pid,
    nodePath: process.execPath,
    stopSignal: ctx.stopSignal,
    log: ctx.log,
  })
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  let sessions: string[]
  try {
    sessions = listCodexEndpoints(project.db)
      .filter((each) => each.launcherPid === process.pid && each.endpoint === launched.endpoint)
      .map((each) => each.sessionId)
    forgetCodexLauncher(project.db, process.pid, launched.endpoint)
  } finally {
    project.close()
  }
  return {
    json: { endpoint: launched.endpoint, exitCode: launched.exitCode, sessions },
    text: '',
    exitCode: launched.exitCode,
  }
}
