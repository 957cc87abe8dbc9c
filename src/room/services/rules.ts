import type { Db } from '../../store/database.ts'
import { readSetting } from '../../store/project-table.ts'
import { type RuleView, ruleCatalog, viewRules } from '../core/rule-catalog.ts'

/**
 * The house rules as `rules` and MCP `room_rules` show them, read from the option groups their
 * rungs live in (`room/core/rule-catalog.ts`). Changes are in `rule-change.ts`: the hooks read
 * the rules, and a change loads the record code (zod) a hook must not.
 */
export function listRules(db: Db): RuleView[] {
  const stored: Record<string, unknown> = {}
  for (const rule of ruleCatalog) {
    if (!(rule.group.key in stored)) stored[rule.group.key] = readSetting(db, rule.group.key)
  }
  return viewRules(stored)
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
