import { describeActor } from '../../identity/core/actor-names.ts'
import { hasLeaseTables, readLeaseLog } from '../../leases/store/lease-table.ts'
import type { Rung } from '../../options/protocol/rung.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import type { Db } from '../../store/db.ts'
import { type Alert, deriveAlerts } from '../core/alerts.ts'
import type { RoomDirectory } from '../core/directory.ts'
import { isRuleName, type RuleName } from '../core/rule-catalog.ts'
import { roomOptions } from '../core/settings.ts'
import { readOverlaps } from '../store/overlap-table.ts'
import { readPresence } from '../store/presence-table.ts'
import { listRules } from './rules.ts'

/**
 * The house rules' side of alerts, kept apart from threads and handoffs (which parse room records
 * with zod): the hooks carry these into sessions' context and must load nothing heavy.
 */

/** Lease collisions this recent are conditions to tell (a day's work, as `alerts` counts them). */
const ruleAlertWindowMs = 24 * 60 * 60 * 1000

/**
 * The house rules' alerts at `warn` or `refuse`, from the store alone, for a hook to carry into a
 * session's context: no git (a worktree's age is unknown, so `stale-worktrees` is left to
 * `alerts`), no threads or handoffs (the room's messages already reach their addressees).
 */
export function loadLoudRuleAlerts(db: Db, directory: RoomDirectory, now: number): Alert[] {
  const rules = ruleFacts(db, now, ruleAlertWindowMs)
  const worktrees = directory.worktrees.map((worktree) => ({
    path: worktree.path,
    target: worktree.target,
    activeAgents: 0,
    ageDays: null,
    missing: false,
  }))
  return deriveAlerts({ ...rules, worktrees, threads: [], handoffs: [] }, now).filter(
    (alert) => alert.severity !== 'warning' && isRuleName(alert.type),
  )
}

/** What every rule's alert is derived from, read from the store. */
export function ruleFacts(db: Db, now: number, windowMs: number) {
  const rungs = Object.fromEntries(listRules(db).map((rule) => [rule.name, rule.rung])) as Record<
    RuleName,
    Rung
  >
  const collisions =
    rungs['lease-collision'] === 'off' || !hasLeaseTables(db)
      ? []
      : readLeaseLog(db, now - windowMs, ['collision'], 100).map((entry) => ({
          pattern: entry.pattern,
          holder: describeActor(entry.holder),
          editor: describeActor(entry.by),
        }))
  const unique = new Map(
    collisions.map((entry) => [`${entry.pattern}\n${entry.holder}\n${entry.editor}`, entry]),
  )
  return {
    rungs,
    staleDays: readOptionGroup(db, roomOptions).staleDays,
    sessions: readPresence(db),
    overlaps: rungs['file-overlap'] === 'off' ? [] : readOverlaps(db),
    collisions: [...unique.values()],
  }
}
