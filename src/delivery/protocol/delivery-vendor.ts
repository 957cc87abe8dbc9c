/**
 * The agent vendors delivery can continue (zod-free: the hooks' bundle reads it): those whose
 * descriptor has a `delivery` part (src/agents/vendors.test.ts keeps the two equal; docs/vendors/).
 */
export const deliveryVendors = ['claude', 'codex', 'gemini', 'opencode'] as const
export type DeliveryVendor = (typeof deliveryVendors)[number]
