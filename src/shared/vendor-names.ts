/**
 * The agent vendors' names, as stored in every table and sent on the wire: the one list the
 * schemas (lease actors, events, delivery) are built from. Each name is a folder of src/agents/ and
 * a line of src/agents/vendors.ts (`src/agents/vendors.test.ts` keeps the three equal). Here, zod-
 * and Node-free, so the hooks' bundles check a stored name without loading a schema library.
 */
export const vendorNames = ['claude', 'codex', 'gemini', 'opencode'] as const
export type VendorName = (typeof vendorNames)[number]

export function isVendorName(value: unknown): value is VendorName {
  return typeof value === 'string' && (vendorNames as readonly string[]).includes(value)
}
