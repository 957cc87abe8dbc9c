import { vendorNames } from '../../shared/vendor-names.ts'

/** The agent vendors delivery can continue (zod-free: the hooks' bundle reads it). */
export const deliveryVendors = vendorNames
export type DeliveryVendor = (typeof deliveryVendors)[number]
