import { type CatalogOption, catalogOptions, findOption } from '../../project/core/option-catalog.ts'
import { isTeamOption } from '../../room/core/rule-catalog.ts'
import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { readSetting } from '../../store/project-table.ts'
import { readStored } from '../core/option-group.ts'
import { writeOptionGroup } from './option-store.ts'
import { type OptionChangeBy, shareOptionChange } from './team-options.ts'

/**
 * Every project option, for the room's `options` and `option-set`: the catalog's groups, read and
 * written through `option-store.ts`.
 */

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
 * Sets one option from what a person typed: `setProjectOption(db, 'leases.auto-lease', 'warn', by)`.
 * An unknown option, or a value its type does not take, is INVALID_INPUT and writes nothing. A team
 * option (a rule's rung, a room setting) is also queued for the team, in the same transaction.
 */
export function setProjectOption(db: Db, fullName: string, text: string, by: OptionChangeBy): ProjectOption {
  const found = findOption(fullName)
  if (!found.ok) throw new SangamError(ErrorCode.InvalidInput, found.problem)
  const { group, field, option } = found.found
  // Before parsing: a refused value is echoed in the error, and a secret must not be.
  refuseSecret(`the value of ${found.found.fullName}`, text)
  const parsed = option.type.fromText(text)
  if (!parsed.ok)
    throw new SangamError(ErrorCode.InvalidInput, `${found.found.fullName} ${parsed.problem}; got "${text}"`)
  const name = found.found.fullName
  const values = db.transaction(() => {
    const written = writeOptionGroup(db, group, { [field]: parsed.value }) as Record<string, unknown>
    const value = parsed.value
    if (
      isTeamOption(name) &&
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    )
      shareOptionChange(db, name, value, by)
    return written
  })()
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
