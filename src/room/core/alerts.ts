import type { Rung } from '../../options/protocol/rung.ts'
import { type AlertSeverity, alertSeverities } from '../protocol/alert-severity.ts'
import type { Alert } from '../protocol/rules-view.ts'
import { remoteWorktreeName } from './cross-machine-overlap.ts'
import { isActiveAgent, type SessionSeen } from './edit-rules.ts'
import type { RuleName } from './rule-catalog.ts'

/**
 * Everything the room should look at now, derived when asked and never stored: the conditions the
 * house rules see (at their rung's severity; a rule at `off` raises nothing) and the threads and
 * messages waiting on someone. Ids are stable: the same condition gives the same id on every run
 * and every replica, so a reader can tell a new alert from one it has seen.
 */

export type AlertType = Alert['type']
export { type AlertSeverity, alertSeverities } from '../protocol/alert-severity.ts'
export type { Alert } from '../protocol/rules-view.ts'

/** A rule's rung as a severity: `advise` a warning, `warn` needs attention, `refuse` is critical. */
export function severityOf(rung: Rung): AlertSeverity | null {
  if (rung === 'refuse') return 'critical'
  if (rung === 'warn') return 'attention'
  if (rung === 'advise') return 'warning'
  return null
}

export interface AlertSession extends SessionSeen {}

export interface AlertWorktree {
  readonly path: string
  readonly target: string
  /** The machine it is on (an overlap names another machine's as `<machine>:<path>`). */
  readonly machine?: string | undefined
  readonly activeAgents: number
  /** Whole days since its last commit; null when unknown. */
  readonly ageDays: number | null
  readonly missing: boolean
}

export interface AlertOverlap {
  readonly worktree: string
  readonly path: string
  readonly otherWorktree: string
  readonly conflicted: boolean
}

export interface AlertThread {
  readonly id: string
  readonly title: string
  readonly reason: string | null
  readonly audience: 'agents' | 'human-loop'
  readonly status: 'open' | 'closed'
  readonly participants: readonly string[]
  readonly paths: readonly string[]
}

export interface AlertHandoff {
  readonly messageId: string
  readonly sender: string
  readonly threadId: string | null
  readonly paths: readonly string[]
  readonly blocker: string | null
  readonly nextOwner: string | null
  /** Whom the message went to (tokens); none is the whole room. */
  readonly recipients: readonly string[]
  /** What was handed off: the message's text as its poster wrote it, before the `Handoff:` fields. */
  readonly text: string
}

export interface AlertCollision {
  readonly pattern: string
  /** Who holds the lease, and who edited under it: display names. */
  readonly holder: string
  readonly editor: string
}

export interface AlertFacts {
  readonly rungs: Readonly<Record<RuleName, Rung>>
  readonly staleDays: number
  readonly sessions: readonly AlertSession[]
  readonly worktrees: readonly AlertWorktree[]
  readonly overlaps: readonly AlertOverlap[]
  readonly threads: readonly AlertThread[]
  readonly handoffs: readonly AlertHandoff[]
  readonly collisions: readonly AlertCollision[]
}

/** A thread "carries a blocker" when its reason says so: `blocker`, `blocked on the API`. */
const blockerReason = /\bblock(?:er|ed|ing)?\b/i

/** The room's alerts, most severe first: each rule at a rung other than `off` derives its own. */
export function deriveAlerts(facts: AlertFacts, now: number): Alert[] {
  const targetOf = worktreeTargets(facts.worktrees)
  const alerts = ruleAlerts.flatMap(([name, derive]) => {
    const severity = severityOf(facts.rungs[name])
    return severity === null ? [] : derive(facts, { severity, now, targetOf })
  })
  alerts.push(...facts.threads.flatMap(threadAlert), ...facts.handoffs.map(handoffAlert))
  const rank = (severity: AlertSeverity) => alertSeverities.indexOf(severity)
  return alerts.sort(
    (a, b) => rank(a.severity) - rank(b.severity) || a.type.localeCompare(b.type) || a.id.localeCompare(b.id),
  )
}

/** What a rule's alerts are derived with: its severity (from its rung), the time, a worktree's name. */
interface RuleContext {
  readonly severity: AlertSeverity
  readonly now: number
  readonly targetOf: (path: string) => string
}

/** The rules with a rung, each deriving its own alerts; a rule at `off` derives none. */
const ruleAlerts: readonly (readonly [RuleName, (facts: AlertFacts, context: RuleContext) => Alert[]])[] = [
  ['one-actor-per-worktree', sharedWorktrees],
  ['file-overlap', fileOverlaps],
  ['stale-worktrees', staleWorktrees],
  ['lease-collision', leaseCollisions],
]

/** A worktree as the room names it (`#target`), this machine's or another's, by its path. */
function worktreeTargets(worktrees: readonly AlertWorktree[]): (path: string) => string {
  return (path) => {
    const known = worktrees.find(
      (worktree) =>
        worktree.path === path ||
        (worktree.machine !== undefined && remoteWorktreeName(worktree.machine, worktree.path) === path),
    )
    return `#${known?.target ?? path.split('/').filter(Boolean).at(-1) ?? path}`
  }
}

/** Two or more active agents in one worktree. */
function sharedWorktrees(facts: AlertFacts, { severity, now, targetOf }: RuleContext): Alert[] {
  const byWorktree = new Map<string, AlertSession[]>()
  for (const session of facts.sessions) {
    if (session.worktree === null || !isActiveAgent(session, now)) continue
    byWorktree.set(session.worktree, [...(byWorktree.get(session.worktree) ?? []), session])
  }
  return [...byWorktree].flatMap(([worktree, sessions]) => {
    if (sessions.length < 2) return []
    const handles = sessions.map((session) => `@${session.handle}`).sort()
    return [
      {
        id: alertId('one-actor-per-worktree', [
          worktree,
          ...sessions.map((s) => `${s.vendor}:${s.sessionId}`).sort(),
        ]),
        type: 'one-actor-per-worktree',
        severity,
        title: `${sessions.length} agents active in ${targetOf(worktree)}: ${handles.join(', ')}`,
        participants: [targetOf(worktree), ...handles],
        paths: [],
        threadId: null,
      },
    ]
  })
}

/** Two worktrees changing the same paths, one alert per pair. */
function fileOverlaps(facts: AlertFacts, { severity, targetOf }: RuleContext): Alert[] {
  const pairs = new Map<string, { worktrees: [string, string]; paths: Set<string>; conflicted: boolean }>()
  for (const row of facts.overlaps) {
    const worktrees = [row.worktree, row.otherWorktree].sort() as [string, string]
    const key = worktrees.join('\n')
    const pair = pairs.get(key) ?? { worktrees, paths: new Set<string>(), conflicted: false }
    pair.paths.add(row.path)
    pair.conflicted ||= row.conflicted
    pairs.set(key, pair)
  }
  return [...pairs.values()].map((pair) => {
    const paths = [...pair.paths].sort()
    const [one, two] = pair.worktrees.map(targetOf)
    return {
      id: alertId('file-overlap', [...pair.worktrees, ...paths]),
      type: 'file-overlap',
      severity,
      title: `${one} and ${two} both change ${countOf(paths.length, 'path')}${pair.conflicted ? ' and would conflict' : ''}`,
      participants: [one ?? '', two ?? ''],
      paths,
      threadId: null,
    }
  })
}

/** A worktree with no active agent and no commit for `staleDays`. */
function staleWorktrees(facts: AlertFacts, { severity }: RuleContext): Alert[] {
  return facts.worktrees.flatMap((worktree) => {
    if (worktree.missing || worktree.activeAgents > 0 || worktree.ageDays === null) return []
    if (worktree.ageDays < facts.staleDays) return []
    return [
      {
        id: alertId('stale-worktrees', [worktree.path]),
        type: 'stale-worktrees',
        severity,
        title: `#${worktree.target} has no active agent and no commit for ${countOf(worktree.ageDays, 'day')}`,
        participants: ['@human', `#${worktree.target}`],
        paths: [],
        threadId: null,
      },
    ]
  })
}

/** An edit under someone else's lease. */
function leaseCollisions(facts: AlertFacts, { severity }: RuleContext): Alert[] {
  return facts.collisions.map((entry) => ({
    id: alertId('lease-collision', [entry.pattern, entry.holder, entry.editor]),
    type: 'lease-collision',
    severity,
    title: `${entry.editor} edited ${entry.pattern} under ${entry.holder}'s lease`,
    participants: [],
    paths: [entry.pattern],
    threadId: null,
  }))
}

/** An open thread that names a blocker, or that waits on a person's decision; no rung turns these off. */
function threadAlert(thread: AlertThread): Alert[] {
  if (thread.status !== 'open') return []
  const blocker = thread.reason !== null && blockerReason.test(thread.reason)
  if (!blocker && thread.audience !== 'human-loop') return []
  return [
    {
      id: alertId(blocker ? 'blocker' : 'decision-needed', [thread.id]),
      type: blocker ? 'blocker' : 'decision-needed',
      severity: blocker ? 'critical' : 'attention',
      title: blocker ? `blocked: ${thread.title}` : `decision needed: ${thread.title}`,
      participants: [...thread.participants],
      paths: [...thread.paths],
      threadId: thread.id,
    },
  ]
}

/** A handoff, blocked or not. */
function handoffAlert(handoff: AlertHandoff): Alert {
  const blocked = handoff.blocker !== null
  const to = handoffTargets(handoff)
  const whom = to.length === 0 ? 'the room (no next owner named)' : to.join(', ')
  const what = handoffSummary(handoff.text)
  return {
    id: alertId(blocked ? 'blocker' : 'handoff', [handoff.messageId]),
    type: blocked ? 'blocker' : 'handoff',
    severity: blocked ? 'critical' : 'attention',
    title: blocked
      ? `@${handoff.sender}'s handoff to ${whom} is blocked: ${handoff.blocker}${what === '' ? '' : ` (${what})`}`
      : `@${handoff.sender} handed off to ${whom}${what === '' ? '' : `: ${what}`}`,
    participants: [`@${handoff.sender}`, ...to],
    paths: [...handoff.paths],
    threadId: handoff.threadId,
  }
}

/** Who a handoff went to: its next owner first, then whom else it was addressed to (the sender left out). */
function handoffTargets(handoff: AlertHandoff): string[] {
  const to: string[] = []
  for (const token of [...(handoff.nextOwner === null ? [] : [handoff.nextOwner]), ...handoff.recipients])
    if (token !== `@${handoff.sender}` && !to.includes(token)) to.push(token)
  return to
}

/**
 * The first line its poster wrote (the text before the `Handoff:` fields `room_handoff` appends),
 * up to 80 characters: what was handed off, in their words; empty when they wrote none.
 */
function handoffSummary(text: string): string {
  const lines = text.split('\n')
  const fields = lines.findIndex((line) => line.trim() === 'Handoff:')
  const first = (fields === -1 ? lines : lines.slice(0, fields)).find((line) => line.trim() !== '') ?? ''
  const line = first.trim()
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/**
 * `<type>-<16 hex>`: a hash of what makes the condition itself (its worktrees, sessions, paths or
 * thread), so it is stable across runs and replicas. FNV-1a, twice with different offsets: core
 * has no crypto, and the id only needs to tell conditions apart, not resist anyone.
 */
export function alertId(type: AlertType, parts: readonly string[]): string {
  const text = [type, ...parts].join('\u0000')
  return `${type}-${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x01000193 ^ 0x5bd1e995)}`
}

function fnv1a(text: string, offset: number): string {
  let hash = offset >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}
