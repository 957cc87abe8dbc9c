/**
 * The agent vendors delivery can continue (zod-free: the hooks' bundle reads it): those whose
 * descriptor has a `delivery` part (src/agents/vendors.test.ts keeps the two equal); the others
 * are captured, leased and briefed, but not yet reached by a tag (docs/vendors/).
 */
export const deliveryVendors = ['claude', 'codex', 'gemini'] as const
export type DeliveryVendor = (typeof deliveryVendors)[number]
