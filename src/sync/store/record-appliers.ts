import { integrationEventApplier } from '../../lanes/store/records/integration-event.ts'
import { leaseGrantedApplier } from '../../leases/store/records/lease-granted.ts'
import { leaseReleasedApplier } from '../../leases/store/records/lease-released.ts'
import { eventApplier } from '../../memory/store/records/event.ts'
import type { RecordTypeApplier } from '../../records/store/applier.ts'
import { roomMachineApplier } from '../../room/store/records/room-machine.ts'
import { roomMessageApplier } from '../../room/store/records/room-message.ts'
import { roomOptionApplier } from '../../room/store/records/room-option.ts'
import { roomPresenceApplier } from '../../room/store/records/room-presence.ts'
import { roomThreadApplier } from '../../room/store/records/room-thread.ts'
import { roomWorktreeApplier } from '../../room/store/records/room-worktree.ts'
import type { RecordTypeName, RecordTypeOf } from '../protocol/record.ts'

/**
 * The replica's applier for every record type of `sync/protocol/record.ts`, each beside its
 * feature's tables (`<feature>/store/records/`). Keyed by type so that a type without an applier does not compile.
 */
export const recordAppliers: { readonly [Name in RecordTypeName]: RecordTypeApplier<RecordTypeOf<Name>> } = {
  event: eventApplier,
  'lease.granted': leaseGrantedApplier,
  'lease.released': leaseReleasedApplier,
  'room.message': roomMessageApplier,
  'room.thread': roomThreadApplier,
  'room.presence': roomPresenceApplier,
  'room.option': roomOptionApplier,
  'room.worktree': roomWorktreeApplier,
  'room.machine': roomMachineApplier,
  'integration.event': integrationEventApplier,
}
