import { runMcpServer } from '../../mcp/server.ts'
import type { CommandSpec } from '../command.ts'
import { version } from '../version.ts'

export const mcpCommand: CommandSpec = {
  name: 'mcp',
  summary: 'Serve ctx_brief, ctx_search, ctx_thread and ctx_note to an agent over MCP (stdio)',
  longRunning: true,
  noJson: true,
  async run(ctx) {
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
  },
}
