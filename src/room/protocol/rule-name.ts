/**
 * The house rules' names: every condition sangam watches for (room/core/rule-catalog.ts holds
 * each with its rung). Without zod, as the rungs: the edit hook reads rules on every edit.
 */
export const ruleNames = [
  'one-actor-per-worktree',
  'file-overlap',
  'stale-worktrees',
  'lease-collision',
] as const
export type RuleName = (typeof ruleNames)[number]
