import { laneOptions } from '../../lanes/core/settings.ts'
import { leaseOptions } from '../../leases/core/settings.ts'
import type { AnyOptionGroup, OptionDefinition } from '../../options/core/option-group.ts'
import { roomOptions } from '../../room/core/settings.ts'
import { closeNames } from '../../shared/close-names.ts'
import { quoteInput } from '../../shared/quote-input.ts'
import { syncOptions } from '../../sync/core/settings.ts'

/**
 * Every group of project options, one per feature, each defined in its feature's `settings.ts`.
 * `options` lists them in this order; `option-set` finds one by its full name.
 */
export const optionGroups: readonly AnyOptionGroup[] = [leaseOptions, syncOptions, roomOptions, laneOptions]

/** One option as the catalog knows it. */
export interface CatalogOption {
  /** `<group>.<name>`: `leases.auto-lease`. */
  readonly fullName: string
  readonly group: AnyOptionGroup
  /** The field it is stored under in its group. */
  readonly field: string
  readonly option: OptionDefinition<unknown>
}

export function catalogOptions(groups: readonly AnyOptionGroup[] = optionGroups): CatalogOption[] {
  return groups.flatMap((group) =>
    Object.entries(group.options as Record<string, OptionDefinition<unknown>>).map(([field, option]) => ({
      fullName: `${group.key}.${option.name}`,
      group,
      field,
      option,
    })),
  )
}

/** The option named `fullName`, or why there is none (naming the options there are). */
export function findOption(
  fullName: string,
  groups: readonly AnyOptionGroup[] = optionGroups,
): { readonly ok: true; readonly found: CatalogOption } | { readonly ok: false; readonly problem: string } {
  const all = catalogOptions(groups)
  const found = all.find((entry) => entry.fullName === fullName.trim())
  if (found !== undefined) return { ok: true, found }
  const names = all.map((entry) => entry.fullName)
  // Typed as its name within its group too: `stale-days` means `room.stale-days`.
  const close = closeNames(fullName, names, { forms: (name) => [name, name.slice(name.indexOf('.') + 1)] })
  const hint = close.length === 0 ? 'the' : `did you mean ${close.join(' or ')}? The`
  return {
    ok: false,
    problem: `there is no project option ${quoteInput(fullName)}; ${hint} options are ${names.join(', ')}`,
  }
}
