import { defaultsOf, type OptionGroup } from '../../options/core/option-group.ts'
import { type OptionType, positiveIntegerType, rungType } from '../../options/core/option-type.ts'
import type { Rung } from '../../options/protocol/rung.ts'
import { isWakeOnTag, type WakeOnTag, wakeOnTagValues } from '../protocol/wake-on-tag.ts'

/** Which tags start a turn in the session they name (docs/room.md, Delivery). */
export const wakeOnTagType: OptionType<WakeOnTag> = {
  describe: wakeOnTagValues.join(' | '),
  check: (value) =>
    isWakeOnTag(value)
      ? { ok: true, value }
      : { ok: false, problem: `is one of ${wakeOnTagValues.join(', ')}` },
  fromText: (text) => wakeOnTagType.check(text.trim()),
}

/** The room's project options: the rungs of its house rules, and how old a stale worktree is. */
export interface RoomSettings {
  readonly oneActorPerWorktree: Rung
  readonly fileOverlap: Rung
  readonly staleWorktrees: Rung
  readonly staleDays: number
  readonly wakeOnTag: WakeOnTag
  /** Seconds: at most one turn started per session in this long. */
  readonly deliveryCooldown: number
  /** Turns caused by agents' tags in a row, per session, until a human's message reaches it. */
  readonly deliveryLoopBudget: number
  /** Hours a post into a thread keeps it in the board's `doing` column (D352). */
  readonly doingHours: number
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
    wakeOnTag: {
      name: 'wake-on-tag',
      type: wakeOnTagType,
      default: 'direct',
      description:
        'which tags start a turn in the session they name: off, direct (its @handle), all (also a #worktree it is active in)',
    },
    deliveryCooldown: {
      name: 'delivery-cooldown',
      type: positiveIntegerType,
      default: 60,
      description: 'seconds: at most one turn started in a session per this long, whatever tags it',
    },
    deliveryLoopBudget: {
      name: 'delivery-loop-budget',
      type: positiveIntegerType,
      default: 4,
      description:
        "turns agents' tags may start in a session in a row before a human's message reaches it again",
    },
    doingHours: {
      name: 'doing-hours',
      type: positiveIntegerType,
      default: 4,
      description:
        "hours a post into a thread keeps it in the board's doing column (an active agent in it does too)",
    },
  },
}

export const defaultRoomSettings: RoomSettings = defaultsOf(roomOptions)
