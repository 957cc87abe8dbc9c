import { createCodexEndpointTable } from '../agents/codex/store/codex-endpoint-table.ts'
import { createDeliveryTables, widenDeliveryKinds } from '../delivery/store/delivery-tables.ts'
import { addIntegrationEventOrigin } from '../lanes/store/integration-event-table.ts'
import { createLaneTable } from '../lanes/store/lane-table.ts'
import { createMainRecordTable } from '../lanes/store/main-record-table.ts'
import { createTeamLockSeenTable } from '../lanes/store/team-lock-seen-table.ts'
import { addLeasePatternRegex, createLeaseTables } from '../leases/store/lease-table.ts'
import { createBriefCursorTable } from '../memory/store/brief-cursor-table.ts'
import { createEventTable } from '../memory/store/event-table.ts'
import { createSessionTable } from '../memory/store/session-table.ts'
import { addThreadOrdinals, createSourceFileTable } from '../memory/store/source-file-table.ts'
import { createUnknownShapeTable } from '../memory/store/unknown-shape-table.ts'
import { createContextAlertTable } from '../room/store/context-alert-table.ts'
import { createContextCursorTable } from '../room/store/context-cursor-table.ts'
import { addMachineHuman, createMachineTable } from '../room/store/machine-table.ts'
import { addMessageAuthor, createMessageTable } from '../room/store/message-table.ts'
import { createOptionChangeTable } from '../room/store/option-change-table.ts'
import { createOverlapLookTable, createOverlapTable } from '../room/store/overlap-table.ts'
import { createPresenceTable } from '../room/store/presence-table.ts'
import { createReadyConflictTable } from '../room/store/ready-conflict-table.ts'
import { createReadyMemoTable } from '../room/store/ready-memo-table.ts'
import { createThreadTable } from '../room/store/thread-table.ts'
import { createWorktreeStateTable } from '../room/store/worktree-state-table.ts'
import type { Clock } from '../shared/clock.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { createRecordOutboxTable } from '../sync/store/record-outbox.ts'
import { addSyncTimes, createSyncTables } from '../sync/store/state-table.ts'
import type { Db } from './db.ts'
import { createProjectTable } from './project-table.ts'

interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

/**
 * Numbered migrations, applied in order inside one IMMEDIATE transaction each. The schema version
 * is `PRAGMA user_version`; `schema_migration` records when each step ran. Never edit a released
 * step: add the next number. Later issues own their numbers (leases 2, sync 3).
 */
export const migrations: readonly Migration[] = [
  {
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
  },
  { version: 2, name: 'leases', sql: createLeaseTables },
  { version: 3, name: 'sync', sql: createSyncTables },
  { version: 4, name: 'lease pattern regex', sql: addLeasePatternRegex },
  { version: 5, name: 'thread ordinals', sql: addThreadOrdinals },
  { version: 6, name: 'record outbox', sql: createRecordOutboxTable },
  { version: 7, name: 'room presence', sql: createPresenceTable },
  { version: 8, name: 'room messages and threads', sql: [createMessageTable, createThreadTable].join('\n') },
  { version: 9, name: 'room overlap picture', sql: createOverlapTable },
  { version: 10, name: 'team option changes', sql: createOptionChangeTable },
  {
    version: 11,
    name: 'ready memo and conflict threads',
    sql: [createReadyMemoTable, createReadyConflictTable].join('\n'),
  },
  { version: 12, name: 'room context cursor', sql: createContextCursorTable },
  { version: 13, name: 'room context alerts', sql: createContextAlertTable },
  { version: 14, name: 'room worktree states', sql: createWorktreeStateTable },
  { version: 15, name: 'delivery ledger and turns', sql: createDeliveryTables },
  { version: 17, name: 'codex app-server endpoints', sql: createCodexEndpointTable },
  { version: 18, name: 'lanes and the integration lock', sql: createLaneTable },
  {
    version: 20,
    name: 'message authors; unknown senders and thread participants in the delivery ledger',
    sql: [addMessageAuthor, widenDeliveryKinds].join('\n'),
  },
  {
    version: 23,
    name: 'the main sangam last moved, and the team lock last seen',
    sql: [createMainRecordTable, createTeamLockSeenTable].join('\n'),
  },
  { version: 26, name: 'sync push and apply times', sql: addSyncTimes },
  {
    version: 27,
    name: 'machine names and shared integration events',
    sql: [createMachineTable, addIntegrationEventOrigin].join('\n'),
  },
  { version: 28, name: 'when the overlap picture was made', sql: createOverlapLookTable },
  { version: 31, name: 'the person at each machine', sql: addMachineHuman },
]

export const schemaVersion = migrations.reduce((max, step) => Math.max(max, step.version), 0)

const createMigrationTable = /*sql*/ `
  CREATE TABLE IF NOT EXISTS schema_migration (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL   -- ms epoch
  );`

/** Brings `db` up to `schemaVersion`; `clock` stamps each step's `applied_at`. */
export function migrate(db: Db, clock: Clock): void {
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > schemaVersion) {
    throw new SangamError(
      ErrorCode.StoreIncompatible,
      `this database has schema version ${current}, newer than this sangam understands (${schemaVersion}); upgrade sangam`,
    )
  }
  if (current === schemaVersion) return
  const step = db.transaction((migration: Migration) => {
    // Re-read inside the write lock: another process may have migrated while we waited.
    const now = db.pragma('user_version', { simple: true }) as number
    if (now >= migration.version) return
    db.exec(createMigrationTable)
    db.exec(migration.sql)
    db.prepare('INSERT INTO schema_migration (version, name, applied_at) VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      clock.now(),
    )
    db.pragma(`user_version = ${migration.version}`)
  })
  for (const migration of migrations) {
    if (migration.version > current) step.immediate(migration)
  }
}
