import type { BoardLane } from '../protocol/board-lane-view.ts'
import type { LaneLock as BoardLock } from '../protocol/lane-status-view.ts'

/**
 * The board's lanes part: every managed lane and the integration lock, as `sangam status` reads
 * them, so the board shows who integrates what beside the threads. Empty (no lanes, lock null) in
 * a project without lanes, and then the text adds nothing.
 */
export type { BoardLane } from '../protocol/board-lane-view.ts'
export type { LaneLock as BoardLock } from '../protocol/lane-status-view.ts'

/** The lanes part as text lines (none without lanes); each line is cut to `width`. */
export function boardLanesText(
  lanes: readonly BoardLane[],
  lock: BoardLock | null,
  now: number,
  width: number,
): string[] {
  if (lanes.length === 0 && lock === null) return []
  const lines = [`LANES (${lanes.length})`, `  lock: ${lockText(lock, now)}`]
  if (lock?.stale === true) lines.push(`    ${takeoverHint}`)
  for (const lane of lanes) {
    const facts = lane.task !== null && lane.state === 'task' ? [] : [lane.state]
    if (lane.dirty && lane.state !== 'dirty') facts.push('dirty')
    if (lane.behind > 0) facts.push(`behind ${lane.behind}`)
    if (lane.task !== null) facts.push(`task ${lane.task}`)
    lines.push(`  ${lane.name} (${[lane.owner, lane.agent ?? 'no agent'].join(', ')}): ${facts.join(', ')}`)
    lines.push(`    next: ${lane.next}`)
  }
  return lines.map((line) => (line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`))
}

/** What a human may do about a stale lock. */
export const takeoverHint = 'a human may take it over: sangam sync --takeover --reason "…" in their lane'

/** `free`, or who holds the lock, for which task, for how long, and whether it has gone stale. */
export function lockText(lock: BoardLock | null, now: number): string {
  if (lock === null) return 'free'
  const task = lock.task === null ? '' : `, task ${lock.task}`
  const stale = lock.stale ? `, stale (silent ${minutes(now - lock.heartbeatAt)})` : ''
  return `lane ${lock.lane} (${lock.owner})${task}, held ${minutes(now - lock.since)}${stale}`
}

function minutes(ms: number): string {
  return `${Math.max(0, Math.round(ms / 60_000))} min`
}
