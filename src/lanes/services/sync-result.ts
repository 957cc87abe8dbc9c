export const syncOutcomes = [
  'already-synced',
  'caught-up',
  'no-changes',
  'published-direct',
  'published-merge',
  'task-started',
  'published-task',
] as const
export type SyncOutcome = (typeof syncOutcomes)[number]

/** What `sangam sync` answers (`--json`). */
export interface SyncResult {
  readonly lane: string
  readonly outcome: SyncOutcome
  /** Main's commit after the sync. */
  readonly main: string
  readonly task: { readonly id: string; readonly file: string; readonly validationFile: string } | null
  /** How a started task reached the lane: `tmux:%3`, `printed` (a human's lane), or null. */
  readonly channel: string | null
  /** A human's lane (`--no-agent`): the task itself, for that human to do. */
  readonly taskText: string | null
  /** A stale lock taken over (`--takeover`): whose, and the refs its work was saved under. */
  readonly takeover: {
    readonly from: string
    readonly reason: string
    readonly backupRefs: readonly string[]
  } | null
}

export interface SyncInput {
  /** Where sync runs: inside a lane's worktree. */
  readonly cwd: string
  readonly takeover?: { readonly reason: string } | undefined
  /** `--accept-main <commit>`: a person accepts a main moved outside sangam (team-lanes.ts applies it). */
  readonly acceptMain?: string | undefined
}

/** How a step answers for the sync: the outcome, and what it changed of the answer's fields. */
export type SyncAnswer = (outcome: SyncOutcome, extra?: Partial<SyncResult>) => SyncResult
