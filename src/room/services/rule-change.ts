import { setProjectOption } from '../../options/services/project-options.ts'
import type { OptionChangeBy } from '../../options/services/team-options.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { optionName, parseRuleChange, type RuleView } from '../core/rule-catalog.ts'
import { listRules } from './rules.ts'

/**
 * `rules set`: a project option change, so it goes wherever options go (`option-set` does the
 * same write, shared with the team). Sets one rule's rung. An unknown rule or rung is INVALID_INPUT naming the valid ones, and
 * nothing is written. Returns every rule after the change.
 */
export function setRule(db: Db, rule: string, rung: string, by: OptionChangeBy): RuleView[] {
  const change = parseRuleChange(rule, rung)
  if (!change.ok) throw new SangamError(ErrorCode.InvalidInput, change.problem)
  setProjectOption(db, optionName(change.rule), change.rung, by)
  return listRules(db)
}
