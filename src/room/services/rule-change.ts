import { setOption } from '../../options/services/options-by-name.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { optionName, parseRuleChange, type RuleView, teamOptionGroups } from '../core/rule-catalog.ts'
import { listRules } from './rules.ts'
import { type OptionChangeBy, shareTeamOptions } from './team-options.ts'

/**
 * `rules set`: a project option change, so it goes wherever options go (`option-set` does the
 * same write, shared with the team). Sets one rule's rung. An unknown rule or rung is INVALID_INPUT naming the valid ones, and
 * nothing is written. Returns every rule after the change.
 */
export function setRule(db: Db, rule: string, rung: string, by: OptionChangeBy): RuleView[] {
  const change = parseRuleChange(rule, rung)
  if (!change.ok) throw new SangamError(ErrorCode.InvalidInput, change.problem)
  setOption(db, teamOptionGroups, optionName(change.rule), change.rung, shareTeamOptions(db, by))
  return listRules(db)
}
