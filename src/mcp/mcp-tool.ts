import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { DeepReadonly } from '../shared/deep-readonly.ts'
import { quoteInput } from '../shared/quote-input.ts'
import { ErrorCode, isSangamError, SangamError } from '../shared/sangam-error.ts'
import { escapeControls } from '../shared/terminal-text.ts'
import { asStoreBusy } from '../store/busy-error.ts'
import type { McpContext } from './mcp-context.ts'

/**
 * What a tool returns: the structured result (checked against its output schema) and a text
 * rendering. Services hand out read-only results; the zod-inferred output types are mutable.
 */
export interface ToolAnswer<Output> {
  readonly structured: DeepReadonly<Output>
  readonly text: string
}

/**
 * One MCP tool: its name, what it is for (agents read the description to decide when to call it),
 * zod shapes for input and output, and what it does. Tool modules are lists of these.
 */
export interface McpTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: Input
  readonly output: Output
  /** Read-only tools are marked so clients may call them without asking. */
  readonly readOnly: boolean
  /** May be async: lease tools wait for the arbiter (or, attached to a team, the server). */
  run(
    input: z.infer<z.ZodObject<Input>>,
    context: McpContext,
  ): ToolAnswer<z.infer<z.ZodObject<Output>>> | Promise<ToolAnswer<z.infer<z.ZodObject<Output>>>>
}

// biome-ignore lint/suspicious/noExplicitAny: a list of tools with different shapes; each is checked where it is defined
export type AnyMcpTool = McpTool<any, any>

/** Defines a tool with its types inferred from its shapes. */
export function defineTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(
  tool: McpTool<Input, Output>,
): McpTool<Input, Output> {
  return tool
}

/**
 * Registers tools on a server. Every failure comes back as a tool result with `isError: true` and
 * the error's code and message, never as a crash of the server: a bad id or a missing repository
 * is something the agent can act on. A bug's stack trace goes to the log (stderr), never to the
 * client. Input is checked once here for what no tool's schema can say: a NUL byte in any string.
 * An argument no tool's schema names is refused by the SDK's own check, naming it.
 */
export function registerTools(server: McpServer, tools: readonly AnyMcpTool[], context: McpContext): void {
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        // An argument the tool does not take is refused, naming it, never dropped: `recipients`
        // for room_post's `to` would otherwise post to the whole room (D271).
        inputSchema: z.strictObject(tool.input),
        outputSchema: tool.output,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      // The SDK has parsed the arguments against `tool.input` before this runs.
      async (input: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          refuseNulBytes(input, '')
          const answer = await tool.run(input, context)
          // The text is what an agent's client shows its human: its control characters are
          // escaped (D290). structuredContent is data and keeps every value exact.
          return {
            content: [{ type: 'text', text: escapeControls(answer.text) }],
            structuredContent: answer.structured,
          }
        } catch (error) {
          return failure(tool.name, asStoreBusy(error), context)
        }
      },
    )
  }
}

function failure(name: string, error: unknown, context: McpContext): CallToolResult {
  if (isSangamError(error)) {
    // A lane refusal is named by its own code (integration-busy…) and says what to do next.
    const code = error.code === ErrorCode.LaneRefused && error.wireCode !== null ? error.wireCode : error.code
    const next = error.next === null ? '' : `\nnext: ${error.next.slice(0, 1000)}`
    return {
      content: [{ type: 'text', text: escapeControls(`${code}: ${error.message.slice(0, 2000)}${next}`) }],
      isError: true,
    }
  }
  context.log.error(`${name} failed`, {
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  })
  const message = error instanceof Error ? error.message : String(error)
  return {
    content: [{ type: 'text', text: escapeControls(`INTERNAL: ${message.split('\n')[0]?.slice(0, 500)}`) }],
    isError: true,
  }
}

/**
 * A NUL byte is in no path, pattern, query or note anyone means; SQLite reads it as the end of a
 * query (`unterminated string`) and git as the end of an argument. Any string holding one, however
 * deep in the input, is refused, naming where it is.
 */
function refuseNulBytes(value: unknown, path: string): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      throw new SangamError(ErrorCode.InvalidInput, `${path} contains a NUL byte; got ${quoteInput(value)}`)
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) refuseNulBytes(item, `${path}[${index}]`)
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value))
      refuseNulBytes(item, path === '' ? key : `${path}.${key}`)
  }
}
