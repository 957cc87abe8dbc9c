import { type CatalogOption, catalogOptions, findOption } from '../../core/options/catalog.ts'
import {
  type OptionDefinition,
  type OptionGroup,
  readStored,
  withDefaults,
} from '../../core/options/option-group.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { readSetting, writeSetting } from '../../store/project-table.ts'

/**
 * Reads and writes the project's options (`core/options/`): each feature's group under its key of
 * the `setting` table, as the fields someone set. The lease and sync settings are read through
 * here, and so will the room's `options` and `option-set`.
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

/** One option as `options --json` will show it. */
export interface ProjectOption {
  readonly name: string
  readonly value: unknown
  readonly default: unknown
  /** True when someone set it (even to its default); false when it follows the default. */
  readonly set: boolean
  readonly type: string
  readonly description: string
}

/** Every project option with its value, in catalog order. */
export function listProjectOptions(db: Db): ProjectOption[] {
  const stored = new Map<string, Record<string, unknown>>()
  return catalogOptions().map((entry) => {
    let set = stored.get(entry.group.key)
    if (set === undefined) {
      const read = readStored(entry.group, readSetting(db, entry.group.key) ?? {})
      set = read.ok ? (read.value as Record<string, unknown>) : {}
      stored.set(entry.group.key, set)
    }
    return describeOption(entry, set)
  })
}

/**
 * Sets one option from what a person typed: `setProjectOption(db, 'leases.auto-lease', 'warn')`.
 * An unknown option, or a value its type does not take, is INVALID_INPUT and writes nothing.
 */
export function setProjectOption(db: Db, fullName: string, text: string): ProjectOption {
  const found = findOption(fullName)
  if (!found.ok) throw new SangamError(ErrorCode.InvalidInput, found.problem)
  const { group, field, option } = found.found
  const parsed = option.type.fromText(text)
  if (!parsed.ok)
    throw new SangamError(ErrorCode.InvalidInput, `${found.found.fullName} ${parsed.problem}; got "${text}"`)
  const values = writeOptionGroup(db, group, { [field]: parsed.value }) as Record<string, unknown>
  return describeOption(found.found, values, true)
}

function describeOption(
  entry: CatalogOption,
  values: Record<string, unknown>,
  set = entry.field in values,
): ProjectOption {
  const { option } = entry
  return {
    name: entry.fullName,
    value: values[entry.field] ?? option.default,
    default: option.default,
    set,
    type: option.type.describe,
    description: option.description,
  }
}
