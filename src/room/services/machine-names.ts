import type { MachineName, MachineNames } from '../../identity/core/machine-labels.ts'
import { machineLabels } from '../../identity/core/machine-labels.ts'
import { machineNameProblem } from '../../identity/core/machine-name.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import { saveMachineName } from '../../identity/services/machine-name-file.ts'
import { thisMachine } from '../../identity/services/this-machine.ts'
import { enqueueRecord } from '../../records/store/record-outbox.ts'
import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/db.ts'
import type { RoomMachineRecord } from '../protocol/records/room-machine.ts'
import { type MachineRow, readMachine, readMachines, writeMachine } from '../store/machine-table.ts'

/**
 * Tells the team this machine's name and its person when the replica does not hold them yet, or
 * holds others: the row and its `room.machine` record in one IMMEDIATE transaction. The daemon calls
 * it as it starts and at each round (a rename or a new hostname reaches the team without a restart),
 * `identify --machine` as it sets one. True when a record was queued.
 */
export function shareMachineName(db: Db, machine: MachineName, human: string, now: number): boolean {
  return db
    .transaction((): boolean => {
      const current = readMachine(db, machine.id)
      // A row from before the person was kept (or another person at this machine now) goes out
      // again, so the team learns who is here (D380).
      if (current !== null && current.name === machine.name && current.human === human) return false
      const row: MachineRow = {
        machine: machine.id,
        name: machine.name,
        updatedAt: Math.max(now, (current?.updatedAt ?? 0) + 1),
        change: (current?.change ?? 0) + 1,
        human,
      }
      writeMachine(db, row)
      enqueueRecord(db, machineDraft(row, human), now)
      return true
    })
    .immediate()
}

function machineDraft(row: MachineRow, human: string): Omit<RoomMachineRecord, 'gseq' | 'receivedAt'> {
  const { change, human: _named, ...payload } = row
  const actor: Actor = { human, vendor: null, sessionId: null }
  return {
    id: `machine:${row.machine}:${change}`,
    type: 'room.machine',
    actor,
    at: new Date(row.updatedAt).toISOString(),
    payload,
  }
}

/** What `identify --machine` answers. */
export interface MachineRename {
  readonly id: string
  readonly name: string
  /** The name it went by before (its hostname when none was set). */
  readonly previous: string
}

/**
 * Sets this machine's readable name (`identify --machine NAME`): checked, kept in the data dir for
 * every project of this machine, and told to this project's team at once (the daemons of its other
 * projects tell theirs at their next round). Refused: a malformed name, or one another machine of
 * the team already goes by.
 */
export function renameMachine(
  db: Db,
  sangamHome: string,
  input: { readonly name: string; readonly human: string },
  now: number,
): MachineRename {
  const name = input.name.trim()
  const problem = machineNameProblem(name)
  if (problem !== null) throw new SangamError(ErrorCode.InvalidInput, `cannot name this machine: ${problem}`)
  refuseSecret("the machine's name", name)
  const before = thisMachine(sangamHome)
  const taken = readMachines(db).find((row) => row.machine !== before.id && row.name === name)
  if (taken !== undefined)
    throw new SangamError(
      ErrorCode.InvalidInput,
      `"${name}" is already the name of machine ${taken.machine} in this team; choose another`,
    )
  saveMachineName(sangamHome, name)
  shareMachineName(db, { id: before.id, name }, input.human, now)
  return { id: before.id, name, previous: before.name }
}

/**
 * The labels of every machine the replica knows; `here` (this machine, by its current name) when
 * the caller knows it, else this machine's row as it last told the team.
 */
export function machineNames(db: Db, here: MachineName | null): MachineNames {
  const known: MachineName[] = readMachines(db)
    .filter((row) => row.machine !== here?.id)
    .map((row) => ({ id: row.machine, name: row.name }))
  const labels = machineLabels(here === null ? known : [...known, here])
  return {
    here: here?.id ?? '',
    label: (id) => (id === null ? '-' : (labels.get(id) ?? id)),
  }
}
