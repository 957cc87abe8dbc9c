/**
 * The agent vendors delivery can continue (zod-free: the hooks' bundle reads it): those whose
 * descriptor has a `delivery` part (src/agents/vendors.test.ts keeps the two equal; docs/vendors/).
 */
export const deliveryVendors = ['claude', 'codex', 'gemini', 'opencode'] as const
export type DeliveryVendor = (typeof deliveryVendors)[number]

/**
 * The vendors `start` (CLI and MCP) opens a new headless session of: those whose new session the
 * lab has proven with the real CLI (opencode's `run --format json`: opencode-session-start.scenario.ts).
 */
export const startVendors = [
  'claude',
  'codex',
  'gemini',
  'opencode',
] as const satisfies readonly DeliveryVendor[]
