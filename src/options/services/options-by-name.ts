import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { readSetting } from '../../store/project-table.ts'
import { type CatalogOption, catalogOptions, findOption } from '../core/option-catalog.ts'
import { type AnyOptionGroup, readStored } from '../core/option-group.ts'
import { writeOptionGroup } from './option-store.ts'

/**
 * Options of some groups read and written by their full name, through `option-store.ts`: the
 * project's catalog for the room's `options` and `option-set` (project/services/project-options.ts),
 * the team options for `rules set`.
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

/**
 * What a write does with the value it set, in the write's transaction: the room queues a team
 * option for the team (room/services/team-options.ts).
 */
export type OptionShare = (fullName: string, value: unknown) => void

/** Every option of `groups` with its value, in their order. */
export function listOptions(db: Db, groups: readonly AnyOptionGroup[]): ProjectOption[] {
  const stored = new Map<string, Record<string, unknown>>()
  return catalogOptions(groups).map((entry) => {
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
 * Sets one option of `groups` from what a person typed: `setOption(db, groups, 'leases.auto-lease',
 * 'warn', share)`. An unknown option, or a value its type does not take, is INVALID_INPUT and
 * writes nothing. `share` is handed the new value in the same transaction.
 */
export function setOption(
  db: Db,
  groups: readonly AnyOptionGroup[],
  fullName: string,
  text: string,
  share: OptionShare,
): ProjectOption {
  const found = findOption(fullName, groups)
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
    share(name, parsed.value)
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
