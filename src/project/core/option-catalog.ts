import { laneOptions } from '../../lanes/core/settings.ts'
import { leaseOptions } from '../../leases/core/settings.ts'
import {
  type CatalogOption,
  findOption as findOptionOf,
  catalogOptions as optionsOf,
} from '../../options/core/option-catalog.ts'
import type { AnyOptionGroup } from '../../options/core/option-group.ts'
import { roomOptions } from '../../room/core/settings.ts'
import { syncOptions } from '../../sync/core/settings.ts'

/**
 * Every group of project options, one per feature, each defined in its feature's `settings.ts`.
 * `options` lists them in this order; `option-set` finds one by its full name.
 */
export const optionGroups: readonly AnyOptionGroup[] = [leaseOptions, syncOptions, roomOptions, laneOptions]

export type { CatalogOption } from '../../options/core/option-catalog.ts'

/** Every project option, in catalog order. */
export function catalogOptions(): CatalogOption[] {
  return optionsOf(optionGroups)
}

/** The project option named `fullName`, or why there is none (naming the options there are). */
export function findOption(fullName: string): ReturnType<typeof findOptionOf> {
  return findOptionOf(fullName, optionGroups)
}
