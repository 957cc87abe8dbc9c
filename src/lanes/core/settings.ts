import { defaultsOf, type OptionGroup } from '../../options/core/option-group.ts'
import { positiveIntegerType, textType } from '../../options/core/option-type.ts'

/** How lanes integrate into main. */
export interface LaneSettings {
  /** A command run in the lane on every candidate before main moves (`npm test`); '' for none. */
  readonly checkCommand: string
  /** Minutes without a sign of life after which the integration lock may be taken over. */
  readonly lockStaleMinutes: number
  /**
   * Unattached: the remote each sync pushes main, the lane branches and the recovery refs to (D303);
   * '' for `origin`, else the first remote; `none` for no push.
   */
  readonly pushRemote: string
}

export const laneOptions: OptionGroup<LaneSettings> = {
  key: 'lanes',
  label: 'lane settings',
  repair: 'set them again with sangam option-set lanes.<name> <value>',
  unreadable: 'refuse',
  options: {
    checkCommand: {
      name: 'check-command',
      type: textType,
      default: '',
      description:
        'a command every publish runs on the candidate in its lane (npm test); main moves only if it passes',
    },
    lockStaleMinutes: {
      name: 'lock-stale-minutes',
      type: positiveIntegerType,
      default: 30,
      description: 'minutes without a sign of life before sync --takeover may take the integration lock',
    },
    pushRemote: {
      name: 'push-remote',
      type: textType,
      default: '',
      description:
        "without a team server, the remote sync pushes main and the lane branches to ('' for origin, else the first remote; none for no push)",
    },
  },
}

export const defaultLaneSettings: LaneSettings = defaultsOf(laneOptions)
