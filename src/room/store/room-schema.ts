import type { Migration } from '../../store/migrations.ts'
import { createContextAlertTable } from './context-alert-table.ts'
import { createContextCursorTable } from './context-cursor-table.ts'
import { addMachineHuman, createMachineTable } from './machine-table.ts'
import { addMessageAuthor, createMessageTable } from './message-table.ts'
import { createOptionChangeTable } from './option-change-table.ts'
import { createOverlapLookTable, createOverlapTable } from './overlap-table.ts'
import { createPresenceTable } from './presence-table.ts'
import { createReadyConflictTable } from './ready-conflict-table.ts'
import { createReadyMemoTable } from './ready-memo-table.ts'
import { createThreadTable } from './thread-table.ts'
import { createWorktreeStateTable } from './worktree-state-table.ts'

/**
 * The room's migration steps (released: never edit one). Its parts of the steps it shares with
 * other features (20 and 27) are the SQL below; `project/store/project-schema.ts` joins them.
 */
export const presenceTable: Migration = { version: 7, name: 'room presence', sql: createPresenceTable }

export const messageAndThreadTables: Migration = {
  version: 8,
  name: 'room messages and threads',
  sql: [createMessageTable, createThreadTable].join('\n'),
}

export const overlapTable: Migration = { version: 9, name: 'room overlap picture', sql: createOverlapTable }

export const optionChangeTable: Migration = {
  version: 10,
  name: 'team option changes',
  sql: createOptionChangeTable,
}

export const readyTables: Migration = {
  version: 11,
  name: 'ready memo and conflict threads',
  sql: [createReadyMemoTable, createReadyConflictTable].join('\n'),
}

export const contextCursorTable: Migration = {
  version: 12,
  name: 'room context cursor',
  sql: createContextCursorTable,
}

export const contextAlertTable: Migration = {
  version: 13,
  name: 'room context alerts',
  sql: createContextAlertTable,
}

export const worktreeStateTable: Migration = {
  version: 14,
  name: 'room worktree states',
  sql: createWorktreeStateTable,
}

/** The room's part of step 20: messages get their author. */
export const messageAuthors: string = addMessageAuthor

/** The room's part of step 27: machines get their names. */
export const machineTable: string = createMachineTable

export const overlapLookTable: Migration = {
  version: 28,
  name: 'when the overlap picture was made',
  sql: createOverlapLookTable,
}

export const machineHuman: Migration = {
  version: 31,
  name: 'the person at each machine',
  sql: addMachineHuman,
}
