import { closeNames } from '../../shared/close-names.ts'
import { quoteInput } from '../../shared/quote-input.ts'
import type { AnyOptionGroup, OptionDefinition } from './option-group.ts'

/**
 * Options found by their full name (`leases.auto-lease`) among some groups: the project's catalog
 * (project/core/option-catalog.ts) hands every feature's groups, the room's team options its own.
 */

/** One option as the catalog knows it. */
export interface CatalogOption {
  /** `<group>.<name>`: `leases.auto-lease`. */
  readonly fullName: string
  readonly group: AnyOptionGroup
  /** The field it is stored under in its group. */
  readonly field: string
  readonly option: OptionDefinition<unknown>
}

/** Every option of `groups`, in their order. */
export function catalogOptions(groups: readonly AnyOptionGroup[]): CatalogOption[] {
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
  groups: readonly AnyOptionGroup[],
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
