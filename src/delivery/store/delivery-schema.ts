import type { Migration } from '../../store/migrations.ts'
import { createDeliveryTables, widenDeliveryKinds } from './delivery-tables.ts'

/**
 * Delivery's migration steps (released: never edit one). Its part of step 20, which it shares with
 * the room, is the SQL below; `project/store/project-schema.ts` joins them.
 */
export const deliveryTables: Migration = {
  version: 15,
  name: 'delivery ledger and turns',
  sql: createDeliveryTables,
}

/** Delivery's part of step 20: unknown senders and thread participants in the ledger. */
export const widerDeliveryKinds: string = widenDeliveryKinds
