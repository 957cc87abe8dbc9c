import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { readSetting, writeSetting } from '../../store/project-table.ts'
import type { OptionDefinition, OptionGroup } from '../core/option-group.ts'
import { readStored, withDefaults } from '../core/option-group.ts'

/**
 * Reads and writes one group of project options (`options/core/`) under its key of the `setting`
 * table, as the fields someone set. Apart from the catalog (`options-by-name.ts`), so that the edit
 * hook, which reads the lease group, loads no other feature's options.
 */

/** A group's values, defaults filling what nobody set. */
export function readOptionGroup<Values extends object>(db: Db, group: OptionGroup<Values>): Values {
  const stored = readSetting(db, group.key)
  if (stored === undefined) return withDefaults(group, {})
  const read = readStored(group, stored)
  if (read.ok) return withDefaults(group, read.value)
  throw new SangamError(
    ErrorCode.StoreIncompatible,
    `the project's ${group.label} are unreadable (${read.problem}); ${group.repair}`,
  )
}

/**
 * Sets some fields (undefined ones are left as they are) and returns the resulting values.
 * Unreadable stored values are replaced; a change of the wrong type is refused and writes nothing.
 */
export function writeOptionGroup<Values extends object>(
  db: Db,
  group: OptionGroup<Values>,
  changes: Partial<Values>,
): Values {
  const set: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue
    const option = (group.options as Record<string, OptionDefinition<unknown> | undefined>)[field]
    const checked = option?.type.check(value) ?? { ok: false, problem: 'is not an option of this group' }
    if (!checked.ok)
      throw new SangamError(ErrorCode.InvalidInput, `${group.label}: ${field} ${checked.problem}`)
    set[field] = checked.value
  }
  const current = readStored(group, readSetting(db, group.key) ?? {})
  const merged = { ...(current.ok ? current.value : {}), ...set } as Partial<Values>
  writeSetting(db, group.key, merged)
  return withDefaults(group, merged)
}
