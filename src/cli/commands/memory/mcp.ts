import { version } from '../../../config/version.ts'
import { readListing, serveMcp } from '../../../mcp/lazy-server.ts'
import type { CommandRun } from '../../command.ts'

export const run: CommandRun = async (ctx) => {
  await serveMcp({
    listing: readListing(version),
    env: ctx.env,
    cwd: ctx.cwd,
    clock: ctx.clock,
    log: ctx.log,
    version,
    stdin: ctx.stdin,
    stdout: ctx.stdout,
    stopSignal: ctx.stopSignal,
  })
  return { json: undefined, text: '' }
}
