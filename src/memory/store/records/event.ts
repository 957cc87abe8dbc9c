import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { Db } from '../../../store/db.ts'
import type { Event } from '../../protocol/event.ts'
import type { eventRecordType } from '../../protocol/records/event.ts'
import { EventWriter, eventInsertOf } from '../event-table.ts'
import { SessionWriter, sessionTouchOf } from '../session-table.ts'
import { ensureSourceFile, recordSourceFileScope } from '../source-file-table.ts'

/**
 * A teammate's event is inserted like a captured one (row, FTS, session), marked with its gseq so
 * it is never pushed back; one already here (this machine's own, or applied before) changes
 * nothing.
 */
export const eventApplier: RecordTypeApplier<typeof eventRecordType> = {
  type: 'event',
  counts: 'events',
  open(db) {
    const events = new EventWriter(db)
    const sessions = new SessionWriter(db)
    const exists = db.prepare('SELECT 1 FROM event WHERE id = ?')
    const markRemote = db.prepare('UPDATE event SET origin_gseq = ?, received_at = ? WHERE id = ?')
    const remoteFiles = new Map<string, number>()
    return {
      // Rows created by a transaction that rolled back must not be remembered.
      begin: () => remoteFiles.clear(),
      apply(record, receivedAt) {
        const event = record.payload
        if (exists.get(event.id) !== undefined) return false
        const row = eventInsertOf(event, {
          sourceFileId: remoteFile(db, remoteFiles, event, receivedAt),
          joinKey: null,
        })
        events.insert(row)
        markRemote.run(record.gseq, receivedAt, event.id)
        if (event.kind !== 'note') sessions.touch(sessionTouchOf(row, 1))
        return true
      },
    }
  },
}

/**
 * A teammate's transcript gets a `source_file` row of its own, so `thread` orders its events by
 * byte offset as it does local ones. The row is marked out of scope: capture never reads it and
 * doctor never counts it, since the file is on another machine.
 */
function remoteFile(db: Db, known: Map<string, number>, event: Event, now: number): number | null {
  if (event.sourcePath === null || event.vendor === 'sangam') return null
  const id = known.get(event.sourcePath)
  if (id !== undefined) return id
  const row = ensureSourceFile(db, event.sourcePath, event.vendor, now)
  recordSourceFileScope(db, row.id, { firstCwd: event.cwd, inScope: false, size: 0, mtime: 0, now })
  known.set(event.sourcePath, row.id)
  return row.id
}
