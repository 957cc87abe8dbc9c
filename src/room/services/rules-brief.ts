import type { BriefSectionSource } from '../../memory/services/brief-section-source.ts'
import { ruleBriefLines } from '../core/rule-catalog.ts'
import { listRules } from './rules.ts'

/**
 * The brief's house-rules section: every rule at `warn` or `refuse`, one short line each, in every
 * session's SessionStart context (and `sangam brief`). Said every time, not only when changed: a
 * rule is in force for the whole session. Left out when no rule is that loud.
 */
export const rulesBrief: BriefSectionSource = ({ db }) => {
  const lines = ruleBriefLines(listRules(db))
  if (lines.length === 0) return []
  return [{ key: 'rules', title: 'House rules in force', lines, total: lines.length, empty: '' }]
}
