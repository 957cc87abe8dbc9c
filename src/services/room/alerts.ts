import { describeActor } from '../../core/leases/actor.ts'
import { type Alert, deriveAlerts } from '../../core/room/alerts.ts'
import type { RuleName } from '../../core/room/rule-catalog.ts'
import { roomOptions } from '../../core/room/settings.ts'
import type { Rung } from '../../protocol/rules/rung.ts'
import type { Db } from '../../store/db.ts'
import { hasLeaseTables, readLeaseLog } from '../../store/leases/lease-table.ts'
import { latestMessages } from '../../store/room/message-table.ts'
import { readOverlaps } from '../../store/room/overlap-table.ts'
import { readPresence } from '../../store/room/presence-table.ts'
import { readOptionGroup } from '../options/option-store.ts'
import { listRules } from './rules.ts'
import { loadTargets, type TargetsInput } from './targets.ts'
import { listThreads } from './threads.ts'

/** How far back handoffs and lease collisions are alerts: a day's work. */
export const alertWindowMs = 24 * 60 * 60 * 1000
/** Handoffs are looked for among this many latest messages. */
const handoffScan = 500

/**
 * `alerts` and MCP `room_alerts`: the facts from the store and git (the worktrees' last commits,
 * as `targets` reads them), then `core/room/alerts.ts`. Reads only.
 */
export function loadAlerts(db: Db, input: TargetsInput): Alert[] {
  const rungs = Object.fromEntries(listRules(db).map((rule) => [rule.name, rule.rung])) as Record<
    RuleName,
    Rung
  >
  const since = input.now - alertWindowMs
  const closed = new Set(
    listThreads(db, { all: true })
      .filter((thread) => thread.status === 'closed')
      .map((thread) => thread.id),
  )
  const handoffs = latestMessages(db, handoffScan)
    .filter((message) => message.kind === 'handoff' && message.at >= since)
    .filter((message) => message.threadId === null || !closed.has(message.threadId))
    .map((message) => ({
      messageId: message.id,
      sender: message.sender,
      threadId: message.threadId,
      paths: message.handoff?.paths ?? [],
      blocker: message.handoff?.blocker ?? null,
      nextOwner: message.handoff?.nextOwner ?? null,
    }))
  const collisions =
    rungs['lease-collision'] === 'off' || !hasLeaseTables(db)
      ? []
      : readLeaseLog(db, since, ['collision'], 100).map((entry) => ({
          pattern: entry.pattern,
          holder: describeActor(entry.holder),
          editor: describeActor(entry.by),
        }))
  const unique = new Map(
    collisions.map((entry) => [`${entry.pattern}\n${entry.holder}\n${entry.editor}`, entry]),
  )
  const needsWorktrees =
    rungs['stale-worktrees'] !== 'off' ||
    rungs['one-actor-per-worktree'] !== 'off' ||
    rungs['file-overlap'] !== 'off'
  return deriveAlerts(
    {
      rungs,
      staleDays: readOptionGroup(db, roomOptions).staleDays,
      sessions: readPresence(db),
      worktrees: needsWorktrees ? loadTargets(db, input).worktrees : [],
      overlaps: rungs['file-overlap'] === 'off' ? [] : readOverlaps(db),
      threads: listThreads(db, { all: false }),
      handoffs,
      collisions: [...unique.values()],
    },
    input.now,
  )
}

/** One line per alert, most severe first. */
export function describeAlerts(alerts: readonly Alert[]): string {
  if (alerts.length === 0) return 'no alerts'
  return alerts
    .map((alert) => {
      const thread = alert.threadId === null ? '' : ` [${alert.threadId}]`
      const paths =
        alert.paths.length === 0
          ? ''
          : ` — ${alert.paths.slice(0, 5).join(', ')}${alert.paths.length > 5 ? ', …' : ''}`
      return `${alert.severity.padEnd(9)} ${alert.type}: ${alert.title}${thread}${paths}`
    })
    .join('\n')
}
