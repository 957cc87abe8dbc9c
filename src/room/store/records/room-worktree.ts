import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import type { roomWorktreeRecordType } from '../../protocol/records/room-worktree.ts'
import { applyWorktreeState } from '../worktree-state-table.ts'

/**
 * A worktree's state from its machine: the newest per machine and path wins. The digest is only
 * the publisher's (to skip re-queuing an identical state), so a received row keeps an empty one.
 */
export const roomWorktreeApplier: RecordTypeApplier<typeof roomWorktreeRecordType> = {
  type: 'room.worktree',
  counts: 'worktreeStates',
  open: (db) => ({
    apply(record) {
      const change = Number(record.id.slice(record.id.lastIndexOf(':') + 1))
      return applyWorktreeState(db, {
        ...record.payload,
        change: Number.isInteger(change) ? change : 0,
        digest: '',
      })
    },
  }),
}
