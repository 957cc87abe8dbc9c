import { listOptions, type ProjectOption, setOption } from '../../options/services/options-by-name.ts'
import { type OptionChangeBy, shareTeamOptions } from '../../room/services/team-options.ts'
import type { Db } from '../../store/database.ts'
import { optionGroups } from '../core/option-catalog.ts'

/** Every project option, for the room's `options` and `option-set`: every feature's groups. */

export type { ProjectOption } from '../../options/services/options-by-name.ts'

/** Every project option with its value, in catalog order. */
export function listProjectOptions(db: Db): ProjectOption[] {
  return listOptions(db, optionGroups)
}

/**
 * Sets one option from what a person typed: `setProjectOption(db, 'leases.auto-lease', 'warn', by)`.
 * An unknown option, or a value its type does not take, is INVALID_INPUT and writes nothing. A team
 * option (a rule's rung, a room setting) is also queued for the team, in the same transaction.
 */
export function setProjectOption(db: Db, fullName: string, text: string, by: OptionChangeBy): ProjectOption {
  return setOption(db, optionGroups, fullName, text, shareTeamOptions(db, by))
}
