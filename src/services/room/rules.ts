import {
  optionName,
  parseRuleChange,
  type RuleView,
  ruleCatalog,
  viewRules,
} from '../../core/room/rule-catalog.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { readSetting } from '../../store/project-table.ts'
import { setProjectOption } from '../options/project-options.ts'
import type { OptionChangeBy } from '../options/team-options.ts'

/**
 * The house rules as `rules` and MCP `room_rules` show them, read from the option groups their
 * rungs live in (`core/room/rule-catalog.ts`); a change is a project option change, so it goes
 * wherever options go (`option-set` does the same write).
 */
export function listRules(db: Db): RuleView[] {
  const stored: Record<string, unknown> = {}
  for (const rule of ruleCatalog) {
    if (!(rule.group.key in stored)) stored[rule.group.key] = readSetting(db, rule.group.key)
  }
  return viewRules(stored)
}

/**
 * Sets one rule's rung. An unknown rule or rung is INVALID_INPUT naming the valid ones, and
 * nothing is written. Returns every rule after the change.
 */
export function setRule(db: Db, rule: string, rung: string, by: OptionChangeBy): RuleView[] {
  const change = parseRuleChange(rule, rung)
  if (!change.ok) throw new SangamError(ErrorCode.InvalidInput, change.problem)
  setProjectOption(db, optionName(change.rule), change.rung, by)
  return listRules(db)
}

/** The text table of `rules`: one line per rule. */
export function describeRules(rules: readonly RuleView[]): string {
  const width = Math.max(...rules.map((rule) => rule.name.length))
  const lines = rules.map((rule) => {
    const state = rule.decided ? `set (default ${rule.default})` : 'default'
    const enforced = rule.enforced ? ', enforced' : ''
    return `${rule.name.padEnd(width)}  ${rule.rung.padEnd(6)}  ${state}${enforced}: ${rule.does}`
  })
  lines.push('', 'change one with: sangam rules set <rule> <off|advise|warn|refuse>')
  return lines.join('\n')
}
