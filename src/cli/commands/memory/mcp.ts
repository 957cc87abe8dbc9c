import { version } from '../../../config/version.ts'
import { runMcpServer } from '../../../mcp/server.ts'
import type { CommandRun } from '../../command.ts'

export const run: CommandRun = async (ctx) => {
  await runMcpServer({
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
