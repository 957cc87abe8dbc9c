import type { Migration } from '../../store/migrations.ts'
import { addIntegrationEventOrigin } from './integration-event-table.ts'
import { createLaneTable } from './lane-table.ts'
import { createMainRecordTable } from './main-record-table.ts'
import { createTeamLockSeenTable } from './team-lock-seen-table.ts'

/**
 * The lanes' migration steps (released: never edit one). Their part of step 27, which they share
 * with the room, is the SQL below; `project/store/project-schema.ts` joins them.
 */
export const laneTable: Migration = {
  version: 18,
  name: 'lanes and the integration lock',
  sql: createLaneTable,
}

export const mainRecordTables: Migration = {
  version: 23,
  name: 'the main sangam last moved, and the team lock last seen',
  sql: [createMainRecordTable, createTeamLockSeenTable].join('\n'),
}

/** The lanes' part of step 27: integration events say where they happened. */
export const integrationEventOrigin: string = addIntegrationEventOrigin
