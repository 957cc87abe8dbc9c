import { leaseOptions } from '../../leases/core/settings.ts'
import { type AnyOptionGroup, readStored } from '../../options/core/option-group.ts'
import { isRung, type Rung, rungs } from '../../options/protocol/rung.ts'
import { closeNames } from '../../shared/close-names.ts'
import { quoteInput } from '../../shared/quote-input.ts'
import { type RuleName, ruleNames } from '../protocol/rule-name.ts'
import type { RuleView } from '../protocol/rules-view.ts'
import { roomOptions } from './settings.ts'

/**
 * The house rules: every condition sangam watches for, each with a rung stored as a project
 * option. `lease-collision` is the lease group's `auto-lease` option itself, not a copy, so one
 * place decides how loud each collision is and the lease arbiter keeps reading what it always did.
 */
export { type RuleName, ruleNames } from '../protocol/rule-name.ts'

export function isRuleName(value: string): value is RuleName {
  return (ruleNames as readonly string[]).includes(value)
}

export interface RuleDefinition {
  readonly name: RuleName
  /** The condition, one line. */
  readonly condition: string
  /** The condition as the brief says it, from the reader's side: "an edit while …". */
  readonly briefly: string
  /** The group and field its rung is stored under. */
  readonly group: AnyOptionGroup
  readonly field: string
  /** What each rung does for this rule. */
  readonly does: Readonly<Record<Rung, string>>
  /** The rungs at which an edit is denied before it happens: the rule is enforced there. */
  readonly enforcedAt: readonly Rung[]
}

const advise = 'listed in alerts'
const warn = "listed in alerts and in every session's context"

export const ruleCatalog: readonly RuleDefinition[] = [
  {
    name: 'one-actor-per-worktree',
    condition: 'another agent session is active in the worktree an edit is made in',
    briefly: 'an edit while another agent session is active in your worktree',
    group: roomOptions,
    field: 'oneActorPerWorktree',
    does: {
      off: 'not checked',
      advise: `${advise}; the edit is allowed with a note`,
      warn: `${warn}; the edit is allowed with a note`,
      refuse: `${warn}; the edit is denied, naming the other session`,
    },
    enforcedAt: ['refuse'],
  },
  {
    name: 'file-overlap',
    condition: "the edited path is also changed by another worktree's work (the daemon's overlap picture)",
    briefly: 'an edit of a path another worktree also changes',
    group: roomOptions,
    field: 'fileOverlap',
    does: {
      off: 'not checked',
      advise: `${advise}; the edit is allowed with a note`,
      warn: `${warn}; the edit is allowed with a note`,
      refuse: `${warn}; the edit is denied, naming the other worktree`,
    },
    enforcedAt: ['refuse'],
  },
  {
    name: 'stale-worktrees',
    condition: 'a worktree has no active agent and no commit for room.stale-days days',
    briefly: 'a worktree with no active agent and no recent commit',
    group: roomOptions,
    field: 'staleWorktrees',
    does: {
      off: 'not checked',
      advise,
      warn,
      refuse: `${warn} (nothing to deny: no edit causes it)`,
    },
    enforcedAt: [],
  },
  {
    name: 'lease-collision',
    condition: "an edit of a file under another session's auto-lease (the option leases.auto-lease)",
    briefly: "an edit of a file under another session's auto-lease",
    group: leaseOptions,
    field: 'autoLease',
    does: {
      off: 'no auto-leases are recorded, so nothing collides',
      advise: `${advise}; the edit is allowed with a note`,
      warn: `${warn}; the edit is allowed with a note and the collision recorded`,
      refuse: `${warn}; the edit is denied, naming the holder`,
    },
    enforcedAt: ['refuse'],
  },
]

export type { RuleView } from '../protocol/rules-view.ts'

/**
 * Every rule at its rung, from the stored option groups (the raw `setting` values by group key;
 * undefined when a group was never set). A stored value that is not a rung counts as undecided.
 */
export function viewRules(stored: Readonly<Record<string, unknown>>): RuleView[] {
  return ruleCatalog.map((rule) => {
    const read = readStored(rule.group, stored[rule.group.key] ?? {})
    const set = read.ok ? (read.value as Record<string, unknown>)[rule.field] : undefined
    const fallback = defaultRung(rule)
    const rung = isRung(set) ? set : fallback
    return {
      name: rule.name,
      rung,
      default: fallback,
      decided: isRung(set),
      enforced: rule.enforcedAt.includes(rung),
      option: optionName(rule),
      condition: rule.condition,
      does: rule.does[rung],
    }
  })
}

export function defaultRung(rule: RuleDefinition): Rung {
  const option = (rule.group.options as Record<string, { default: unknown; name: string }>)[rule.field]
  return isRung(option?.default) ? option.default : 'off'
}

export function optionName(rule: RuleDefinition): string {
  const option = (rule.group.options as Record<string, { name: string }>)[rule.field]
  return `${rule.group.key}.${option?.name ?? rule.field}`
}

/** `rules set <rule> <rung>` checked: the rule and the rung, or a problem naming the valid ones. */
export function parseRuleChange(
  rule: string,
  rung: string,
):
  | { readonly ok: true; readonly rule: RuleDefinition; readonly rung: Rung }
  | { readonly ok: false; readonly problem: string } {
  const found = ruleCatalog.find((entry) => entry.name === rule.trim())
  if (found === undefined) {
    const close = closeNames(rule, ruleNames)
    const hint = close.length === 0 ? 'the' : `did you mean ${close.join(' or ')}? The`
    return {
      ok: false,
      problem: `there is no rule ${quoteInput(rule)}; ${hint} rules are ${ruleNames.join(', ')}`,
    }
  }
  const wanted = rung.trim()
  if (!isRung(wanted)) {
    const close = closeNames(rung, rungs)
    const hint = close.length === 0 ? '' : ` (did you mean ${close.join(' or ')}?)`
    return {
      ok: false,
      problem: `a rule's rung is one of ${rungs.join(', ')}; got ${quoteInput(rung)}${hint}`,
    }
  }
  return { ok: true, rule: found, rung: wanted }
}

/**
 * The brief's lines: one per rule at `warn` or `refuse`, refusals first, so every session starts
 * knowing what will stop it. Rules below `warn` are left to `alerts`.
 */
export function ruleBriefLines(rules: readonly RuleView[]): string[] {
  const loud = rules.filter((rule) => rule.rung === 'warn' || rule.rung === 'refuse')
  const ordered = [
    ...loud.filter((rule) => rule.rung === 'refuse'),
    ...loud.filter((rule) => rule.rung === 'warn'),
  ]
  return ordered.map((rule) => {
    const definition = ruleCatalog.find((entry) => entry.name === rule.name)
    const what = definition?.briefly ?? rule.condition
    const lands = rule.enforced
      ? 'is denied'
      : rule.name === 'stale-worktrees'
        ? 'is listed in alerts'
        : 'is allowed with a warning'
    return `${rule.name} (${rule.rung}): ${what} ${lands}`
  })
}

/**
 * The options shared with the team (`room.option` records): every `room` option and every option a
 * rule keeps its rung in (`leases.auto-lease`), so one team decides how loud each collision is.
 * The rest stay per machine as they were (lease durations, what a replica shares).
 */
export function isTeamOption(fullName: string): boolean {
  if (fullName.startsWith(`${roomOptions.key}.`)) return true
  return ruleCatalog.some((rule) => optionName(rule) === fullName)
}

/** The groups every team option is stored in: the room's, and each group a rule's rung is in. */
export const teamOptionGroups: readonly AnyOptionGroup[] = [
  ...new Set([roomOptions, ...ruleCatalog.map((rule) => rule.group)]),
]
