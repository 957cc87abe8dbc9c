import { defaultsOf, type OptionGroup } from '../../options/core/option-group.ts'
import { booleanType } from '../../options/core/option-type.ts'
import type { SyncSettings } from './share.ts'

/**
 * What this replica shares with its team server. An unreadable stored value takes the default,
 * as it always did: the default shares less, so guessing it can leak nothing.
 */
export const syncOptions: OptionGroup<SyncSettings> = {
  key: 'sync',
  label: 'sync settings',
  repair: 'set them again with sangam init --share-tool-output',
  unreadable: 'default',
  options: {
    shareToolOutput: {
      name: 'share-tool-output',
      type: booleanType,
      default: false,
      description:
        'push tool output to the team server too (it is most of the bytes, and where secrets live)',
    },
  },
}

export const defaultSyncSettings: SyncSettings = defaultsOf(syncOptions)
