/**
 * Every way `lane`, `sync` and `delete` refuse, each with its own code (the `--json` error's
 * `code`), a message saying why and `next`: what to run or do next, and who must do it.
 */
export const laneRefusalCodes = [
  'not-a-lane',
  'unknown-lane',
  'lane-exists-elsewhere',
  'integration-busy',
  'lock-not-stale',
  'lock-not-held',
  'main-dirty',
  'main-moved',
  'main-moved-outside',
  'nothing-to-accept',
  'lane-unsafe-state',
  'check-failed',
  'merge-unclean',
  'task-undeliverable',
  'task-file-missing',
  'task-refs-missing',
  'task-no-candidate',
  'task-dirty',
  'validation-missing',
  'validation-incomplete',
  'lane-owns-lock',
  'lane-has-task',
  'lane-agent-live',
  'lane-ignored-files',
  'lane-branch-elsewhere',
  'lane-interrupted',
  'sync-in-progress',
] as const
export type LaneRefusalCode = (typeof laneRefusalCodes)[number]

export interface LaneRefusal {
  readonly code: LaneRefusalCode
  readonly message: string
  readonly next: string
}

export function isLaneRefusalCode(value: string): value is LaneRefusalCode {
  return (laneRefusalCodes as readonly string[]).includes(value)
}
