import type { RecordTypeName } from '../../protocol/sync/record.ts'
import type { RecordTypeApplier } from './appliers/applier.ts'
import { eventApplier } from './appliers/event.ts'
import { integrationEventApplier } from './appliers/integration-event.ts'
import { leaseGrantedApplier } from './appliers/lease-granted.ts'
import { leaseReleasedApplier } from './appliers/lease-released.ts'
import { roomMachineApplier } from './appliers/room-machine.ts'
import { roomMessageApplier } from './appliers/room-message.ts'
import { roomOptionApplier } from './appliers/room-option.ts'
import { roomPresenceApplier } from './appliers/room-presence.ts'
import { roomThreadApplier } from './appliers/room-thread.ts'
import { roomWorktreeApplier } from './appliers/room-worktree.ts'

/**
 * The replica's applier for every record type of `protocol/sync/record.ts`, one file each in
 * `appliers/`. Keyed by type so that a type without an applier does not compile.
 */
export const recordAppliers: { readonly [Name in RecordTypeName]: RecordTypeApplier<Name> } = {
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
