import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { readEnvironment } from '../../src/config/environment.ts'
import { McpContext } from '../../src/mcp/mcp-context.ts'
import { type AnyMcpTool, registerTools } from '../../src/mcp/mcp-tool.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { silentLogger } from '../../src/shared/logger.ts'

/** A client connected in memory to a server that registers `tools` over `context`, as the real server does. */
export async function connectTools(
  tools: readonly AnyMcpTool[],
  context: McpContext,
  clientName = 'claude-code',
): Promise<Client> {
  const server = new McpServer({ name: 'sangam', version: '0' })
  registerTools(server, tools, context)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: clientName, version: '0' })
  await client.connect(clientSide)
  return client
}

/**
 * What the server knows of one agent session of `user` (default alice@x.dev) working in `cwd`, with
 * its data under `home`: `env` adds what the agent's CLI gives its servers (a session id).
 */
export function agentContext(options: {
  readonly cwd: string
  readonly home: string
  readonly env?: Record<string, string>
  readonly user?: string
  readonly now?: number
  readonly clientName?: string
}): McpContext {
  return new McpContext({
    env: readEnvironment({
      HOME: options.home,
      SANGAM_HOME: join(options.home, '.sangam'),
      SANGAM_USER: options.user ?? 'alice@x.dev',
      ...options.env,
    }),
    clock: new ManualClock(options.now ?? Date.parse('2026-12-01T23:30:00Z')),
    log: silentLogger,
    cwd: options.cwd,
    version: '0',
    clientName: () => options.clientName ?? 'claude-code',
  })
}
