import type { Migration } from '../../store/migrations.ts'
import { createProjectTable } from '../../store/project-table.ts'
import { createBriefCursorTable } from './brief-cursor-table.ts'
import { createEventTable } from './event-table.ts'
import { createSessionTable } from './session-table.ts'
import { addThreadOrdinals, createSourceFileTable } from './source-file-table.ts'
import { createUnknownShapeTable } from './unknown-shape-table.ts'

/**
 * The memory's migration steps (released: never edit one). The first step of every project is the
 * memory's, and it creates the project row's table with it.
 */
export const memoryTables: Migration = {
  version: 1,
  name: 'memory',
  sql: [
    createProjectTable,
    createSourceFileTable,
    createUnknownShapeTable,
    createEventTable,
    createSessionTable,
    createBriefCursorTable,
  ].join('\n'),
}

export const threadOrdinals: Migration = { version: 5, name: 'thread ordinals', sql: addThreadOrdinals }
