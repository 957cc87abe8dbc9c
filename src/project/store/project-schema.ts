import { codexEndpointTable } from '../../agents/codex/store/codex-schema.ts'
import { deliveryTables, widerDeliveryKinds } from '../../delivery/store/delivery-schema.ts'
import { integrationEventOrigin, laneTable, mainRecordTables } from '../../lanes/store/lanes-schema.ts'
import { leasePatternRegex, leaseTables } from '../../leases/store/leases-schema.ts'
import { memoryTables, threadOrdinals } from '../../memory/store/memory-schema.ts'
import {
  contextAlertTable,
  contextCursorTable,
  machineHuman,
  machineTable,
  messageAndThreadTables,
  messageAuthors,
  optionChangeTable,
  overlapLookTable,
  overlapTable,
  presenceTable,
  readyTables,
  worktreeStateTable,
} from '../../room/store/room-schema.ts'
import type { Schema } from '../../store/migrations.ts'
import { recordOutbox, syncTables, syncTimes } from '../../sync/store/sync-schema.ts'

/**
 * A project database's schema: every feature's steps (each in its `store/<feature>-schema.ts`) in
 * the order they were released. Never edit a released step: add the next number
 * (`project-schema.test.ts` pins each step's SQL). Later issues own their numbers, so gaps stay.
 */
export const projectSchema: Schema = [
  memoryTables,
  leaseTables,
  syncTables,
  leasePatternRegex,
  threadOrdinals,
  recordOutbox,
  presenceTable,
  messageAndThreadTables,
  overlapTable,
  optionChangeTable,
  readyTables,
  contextCursorTable,
  contextAlertTable,
  worktreeStateTable,
  deliveryTables,
  codexEndpointTable,
  laneTable,
  {
    version: 20,
    name: 'message authors; unknown senders and thread participants in the delivery ledger',
    sql: [messageAuthors, widerDeliveryKinds].join('\n'),
  },
  mainRecordTables,
  syncTimes,
  {
    version: 27,
    name: 'machine names and shared integration events',
    sql: [machineTable, integrationEventOrigin].join('\n'),
  },
  overlapLookTable,
  machineHuman,
]
