/** The agent vendors delivery can continue (zod-free: the hooks' bundle reads it). */
export const deliveryVendors = ['claude', 'codex'] as const
export type DeliveryVendor = (typeof deliveryVendors)[number]
