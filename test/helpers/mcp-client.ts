import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { mcpEntry } from './run-cli.ts'

export interface McpConnection extends AsyncDisposable {
  readonly client: Client
  call(name: string, args: Record<string, unknown>): ReturnType<Client['callTool']>
  /** What the server wrote to stderr so far (its log), for failure messages. */
  stderr(): string
}

/**
 * A real MCP client connected the way Claude Code and Codex do: the bundled server `init`
 * registers, over stdio, or whatever `launch` says (an entry read from a host's own config file).
 * `clientName` is the name it introduces itself with (Codex's is `codex-mcp-client`).
 */
export async function connectMcp(
  cwd: string,
  env: Record<string, string | undefined>,
  launch: { readonly command: string; readonly args: readonly string[] } = {
    command: process.execPath,
    args: [mcpEntry],
  },
  clientName = 'sangam-test',
): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: [...launch.args],
    cwd,
    env: Object.fromEntries(
      Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const client = new Client({ name: clientName, version: '1.0.0' })
  await client.connect(transport)
  return {
    client,
    call: (name, args) => client.callTool({ name, arguments: args }),
    stderr: () => stderr,
    [Symbol.asyncDispose]: () => client.close(),
  }
}
