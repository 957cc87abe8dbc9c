import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Environment } from '../config/environment.ts'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import { McpContext } from './mcp-context.ts'
import { registerTools } from './mcp-tool.ts'
import { tools } from './tools.ts'

export interface McpServerOptions {
  readonly env: Environment
  readonly cwd: string
  readonly clock: Clock
  readonly log: Logger
  readonly version: string
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: NodeJS.WritableStream
  /** Aborted on SIGINT/SIGTERM. */
  readonly stopSignal: AbortSignal
  /**
   * Requests stdin replays whose answers the client already has (lazy-server.ts answered them from
   * the listing): their answers are not written again.
   */
  readonly dropAnswersTo?: readonly string[]
}

const instructions =
  "sangam is this project's shared memory: what every agent (Claude Code, Codex) and human on it said and did, " +
  'captured verbatim from their transcripts. Call ctx_brief when you start; ctx_search before re-deriving ' +
  'something someone may already have worked out; ctx_thread to read a hit in context; ctx_note to record a ' +
  'decision the transcripts cannot show. Before changing files another session may touch, ctx_claim them (and ' +
  'ctx_release when done); ctx_who_has says who holds a file.'

/**
 * Serves the MCP tools over stdio until the client goes away (stdin ends) or we are told to stop.
 * stdout carries JSON-RPC only; everything else goes to the logger (stderr).
 */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const server = new McpServer({ name: 'sangam', version: options.version }, { instructions })
  const context = new McpContext({
    env: options.env,
    clock: options.clock,
    log: options.log.child({ component: 'mcp' }),
    cwd: options.cwd,
    version: options.version,
    clientName: () => server.server.getClientVersion()?.name,
  })
  registerTools(server, tools, context)
  const transport = new StdioServerTransport(
    options.stdin as NodeJS.ReadStream,
    options.stdout as NodeJS.WriteStream,
  )
  const dropped = new Set(options.dropAnswersTo ?? [])
  if (dropped.size > 0) {
    const send = transport.send.bind(transport)
    transport.send = async (message) => {
      if ('id' in message && typeof message.id === 'string' && dropped.delete(message.id)) return
      await send(message)
    }
  }
  const closed = new Promise<void>((resolve) => {
    options.stdin.once('end', resolve)
    options.stdin.once('close', resolve)
    options.stopSignal.addEventListener('abort', () => resolve(), { once: true })
    transport.onclose = () => resolve()
  })
  transport.onerror = (error) => context.log.warn('stdio transport error', { error: error.message })
  await server.connect(transport)
  context.log.debug('serving', { projectDir: context.projectDir, tools: tools.map((tool) => tool.name) })
  try {
    await closed
  } finally {
    await server.close()
    context.close()
  }
}
