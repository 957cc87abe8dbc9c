/**
 * The agent vendors delivery can continue (zod-free: the hooks' bundle reads it): those whose
 * descriptor has a `delivery` part (src/agents/vendors.test.ts keeps the two equal). Gemini CLI
 * and opencode are captured, leased and briefed, but not yet reached by a tag (docs/vendors/).
 */
export const deliveryVendors = ['claude', 'codex'] as const
export type DeliveryVendor = (typeof deliveryVendors)[number]
