import { createRecordOutboxTable } from '../../records/store/record-outbox.ts'
import type { Migration } from '../../store/migrations.ts'
import { addSyncTimes, createSyncTables } from './state-table.ts'

/** Team sync's migration steps (released: never edit one). */
export const syncTables: Migration = { version: 3, name: 'sync', sql: createSyncTables }

export const recordOutbox: Migration = { version: 6, name: 'record outbox', sql: createRecordOutboxTable }

export const syncTimes: Migration = { version: 26, name: 'sync push and apply times', sql: addSyncTimes }
