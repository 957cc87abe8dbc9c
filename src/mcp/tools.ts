import { deliveryTools } from './delivery-tools.ts'
import { laneTools } from './lane-tools.ts'
import { leaseTools } from './lease-tools.ts'
import type { AnyMcpTool } from './mcp-tool.ts'
import { memoryTools } from './memory-tools.ts'
import { roomPresenceTools } from './room-presence-tools.ts'
import { roomReadyTools } from './room-ready-tool.ts'
import { roomRuleTools } from './room-rule-tools.ts'
import { roomTools } from './room-tools.ts'

/**
 * Every tool the MCP server offers, module by module. A new group of tools (leases: `ctx_claim`,
 * `ctx_release`, `ctx_who_has`) is one more module defined like `memory-tools.ts` and listed here.
 */
export const tools: readonly AnyMcpTool[] = [
  ...memoryTools,
  ...leaseTools,
  ...roomPresenceTools,
  ...roomTools,
  ...roomReadyTools,
  ...roomRuleTools,
  ...laneTools,
  ...deliveryTools,
]

/** The tools as `sangam mcp --help` lists them: one line each, name and title. */
export function describeTools(): string {
  const width = Math.max(...tools.map((tool) => tool.name.length))
  return ['Tools:', ...tools.map((tool) => `  ${tool.name.padEnd(width)}  ${tool.title}`)].join('\n')
}
