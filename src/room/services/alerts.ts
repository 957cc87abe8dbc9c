import { oneLine } from '../../shared/terminal-text.ts'
import type { Db } from '../../store/db.ts'
import { type Alert, deriveAlerts } from '../core/alerts.ts'
import { latestMessages } from '../store/message-table.ts'
import { ruleFacts } from './rule-alerts.ts'
import { loadTargets, type TargetsInput } from './targets.ts'
import { listThreads } from './threads.ts'

/** How far back handoffs and lease collisions are alerts: a day's work. */
export const alertWindowMs = 24 * 60 * 60 * 1000
/** Handoffs are looked for among this many latest messages. */
const handoffScan = 500

/**
 * `alerts` and MCP `room_alerts`: the facts from the store and git (the worktrees' last commits,
 * as `targets` reads them), then `room/core/alerts.ts`. Reads only.
 */
export async function loadAlerts(db: Db, input: TargetsInput): Promise<Alert[]> {
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
      recipients: message.recipients,
      text: message.text,
    }))
  const rules = ruleFacts(db, input.now, alertWindowMs)
  const needsWorktrees =
    rules.rungs['stale-worktrees'] !== 'off' ||
    rules.rungs['one-actor-per-worktree'] !== 'off' ||
    rules.rungs['file-overlap'] !== 'off'
  return deriveAlerts(
    {
      ...rules,
      worktrees: needsWorktrees ? (await loadTargets(db, input)).worktrees : [],
      threads: listThreads(db, { all: false }),
      handoffs,
    },
    input.now,
  )
}

/** One line per alert, most severe first. */
export function describeAlerts(alerts: readonly Alert[]): string {
  if (alerts.length === 0) return 'no alerts'
  return alerts
    .map((alert) => {
      // An alert is one line, whatever the title, thread or paths others wrote hold (D290).
      const thread = alert.threadId === null ? '' : ` [${oneLine(alert.threadId)}]`
      const paths =
        alert.paths.length === 0
          ? ''
          : ` — ${oneLine(alert.paths.slice(0, 5).join(', '))}${alert.paths.length > 5 ? ', …' : ''}`
      return `${alert.severity.padEnd(9)} ${alert.type}: ${oneLine(alert.title)}${thread}${paths}`
    })
    .join('\n')
}
