import type { Rung } from '../../protocol/rules/rung.ts'
import { defaultsOf, type OptionGroup } from '../options/option-group.ts'
import { positiveIntegerType, rungType } from '../options/option-type.ts'

/** The room's project options: the rungs of its house rules, and how old a stale worktree is. */
export interface RoomSettings {
  readonly oneActorPerWorktree: Rung
  readonly fileOverlap: Rung
  readonly staleWorktrees: Rung
  readonly staleDays: number
}

/**
 * The `room` group (docs/decisions.md D130–D132 explain each default). Unreadable stored values
 * take their defaults rather than refusing: the edit hook reads this group on every edit, and a
 * refusal there would fail the whole gate open, lease check included.
 */
export const roomOptions: OptionGroup<RoomSettings> = {
  key: 'room',
  label: 'room settings',
  repair: 'set them again with sangam rules set <rule> <rung>',
  unreadable: 'default',
  options: {
    oneActorPerWorktree: {
      name: 'one-actor-per-worktree',
      type: rungType,
      default: 'warn',
      description: 'how an edit lands while another agent session is active in the same worktree',
    },
    fileOverlap: {
      name: 'file-overlap',
      type: rungType,
      default: 'warn',
      description: "how an edit lands on a path another worktree's work also changes",
    },
    staleWorktrees: {
      name: 'stale-worktrees',
      type: rungType,
      default: 'advise',
      description: 'how loudly a worktree with no active agent and no recent commit is reported',
    },
    staleDays: {
      name: 'stale-days',
      type: positiveIntegerType,
      default: 30,
      description: 'days without a commit or an active agent before a worktree is stale',
    },
  },
}

export const defaultRoomSettings: RoomSettings = defaultsOf(roomOptions)
