import { isRecord } from '../../shared/is-record.ts'
import {
  applyFreeTextRule,
  type FieldRule,
  type FreeTextField,
  type FreeTextKind,
  refusesSecrets,
  secretKindsIn,
  secretRefusal,
} from './free-text-rule.ts'
import { scrubSecrets } from './scrubber.ts'

/**
 * Every string field of every record type (each feature's `protocol/records/`) and of every request the team
 * server stores from (lease claims and releases, the integration lock, a socket's actor), with its
 * kind under the free-text rule (`free-text-rule.ts`). `wire-fields.test.ts` walks the zod schemas
 * and fails on a string field this table does not classify, so a new field cannot skip the rule.
 *
 * Paths are dotted, `[]` standing for every element of an array. The table is applied where a
 * record or request is written (the use case that builds it), where it leaves the machine (the
 * push), where the server takes it, and where a record from the server is applied.
 */
const name = (label: string): FreeTextField => ({ kind: 'name', label })
const prose = (label: string): FreeTextField => ({ kind: 'prose', label })
const context = (label: string): FreeTextField => ({ kind: 'context', label })
const fixed = (why: string): FieldRule => ({ kind: 'not-free-text', why })

const isoTime = fixed('an ISO-8601 time (the schema checks it, or the server wrote it)')

/** Who acts: the human from SANGAM_USER or git's user, the session id from the agent's environment. */
function actorFields(prefix: string): Record<string, FieldRule> {
  return {
    [`${prefix}.human`]: context('the human acting (SANGAM_USER, or git user.email / user.name)'),
    [`${prefix}.sessionId`]: context("the agent session's id"),
  }
}

/** What every record carries besides its payload. */
const envelope: Record<string, FieldRule> = {
  id: name('the record id'),
  at: isoTime,
  receivedAt: isoTime,
  ...actorFields('actor'),
}

const lease: Record<string, FieldRule> = {
  'payload.lease.pattern': name('a lease pattern'),
  'payload.lease.reason': prose('the lease reason'),
  ...actorFields('payload.lease.holder'),
}

export const wireFields = {
  event: {
    ...envelope,
    'payload.id': name('the event id'),
    'payload.at': isoTime,
    'payload.cliVersion': context("the agent CLI's version, as its transcript gives it"),
    'payload.sessionId': context("the session id, as the agent's transcript gives it"),
    'payload.author': context('the human the event belongs to'),
    'payload.cwd': context("the session's working directory"),
    'payload.branch': context("the session's git branch"),
    'payload.sourcePath': context('the path of the transcript the event came from'),
    'payload.toolName': context("a tool call's tool name"),
    'payload.callId': context("a tool call's id"),
    'payload.text': context('the captured text (a note is refused at its edge first)'),
  },
  'lease.granted': { ...envelope, ...lease },
  'lease.released': {
    ...envelope,
    ...lease,
    'payload.forceReason': prose('the reason for forcing the release'),
  },
  'room.message': {
    ...envelope,
    'payload.id': name('the message id'),
    'payload.topic': name('the message topic'),
    'payload.text': prose('the message text'),
    // A handle was checked when it was claimed (or generated); a human's name is context.
    'payload.sender': context("the sender (a session's handle, or the human's name)"),
    'payload.human': context('the human the poster acts for'),
    'payload.session.vendor': context("the posting session's vendor"),
    'payload.session.sessionId': context("the posting session's id"),
    'payload.recipients[]': name('a recipient'),
    'payload.threadId': name('the thread id'),
    'payload.worktree': context("the poster's worktree path"),
    'payload.branch': context("the poster's branch"),
    'payload.head': context("the poster's HEAD commit"),
    'payload.handoff.sourceSha': name("the handoff's commit"),
    'payload.handoff.paths[]': name('a handoff path'),
    'payload.handoff.proof': prose("the handoff's proof"),
    'payload.handoff.blocker': prose("the handoff's blocker"),
    'payload.handoff.nextOwner': name("the handoff's next owner"),
  },
  'room.thread': {
    ...envelope,
    'payload.id': name('the thread id'),
    'payload.title': prose('the thread title'),
    'payload.reason': prose('the thread reason'),
    'payload.participants[]': name('a thread participant'),
    'payload.paths[]': name('a thread path'),
    'payload.source': context("the thread's opener (a handle, the human's name, or a daemon's)"),
    'payload.opener.vendor': context("the opening session's vendor"),
    'payload.opener.sessionId': context("the opening session's id"),
  },
  'room.presence': {
    ...envelope,
    'payload.sessionId': context("the session's id"),
    'payload.handle': name('the handle'),
    'payload.human': context('the human the session acts for'),
    'payload.worktree': context("the session's worktree path"),
    'payload.branch': context("the session's branch"),
    'payload.machine': name('the machine id'),
  },
  'room.option': {
    ...envelope,
    'payload.name': name('the option name'),
    'payload.value': prose('the option value'),
  },
  'room.worktree': {
    ...envelope,
    'payload.machine': name('the machine id'),
    'payload.path': context("the worktree's path"),
    'payload.target': context("the worktree's #target"),
    'payload.branch': context("the worktree's branch"),
    'payload.head': fixed('a commit id: 40 to 64 hex digits (the schema checks it)'),
    'payload.base': fixed('a commit id: 40 to 64 hex digits (the schema checks it)'),
    'payload.changes[].path': context('a changed path (one the scrubber flags is left out, D163)'),
  },
  'room.machine': {
    ...envelope,
    'payload.machine': name('the machine id'),
    'payload.name': name("the machine's name"),
  },
  'integration.event': {
    ...envelope,
    'payload.machine': name('the machine id'),
    'payload.human': context('the human who ran the lane command'),
    'payload.type': name('the integration event type'),
    'payload.lane': name('the lane name'),
    'payload.detail': context("what the lane command recorded (JSON: commits, paths, a check's command)"),
  },
  'lease claim': {
    ...actorFields('actor'),
    'patterns[]': name('a lease pattern'),
    reason: prose('the lease reason'),
  },
  'lease release': {
    ...actorFields('actor'),
    'patterns[]': fixed(
      'names leases that exist; stored nowhere (a lease made before the rule can still go)',
    ),
    forceReason: prose('the reason for forcing the release'),
  },
  'lock acquire': {
    lane: name('the lane name'),
    owner: context("the lane owner's name"),
    machine: name('the machine id'),
    task: name('the task id'),
  },
  'lock heartbeat': { task: name('the task id') },
  'lock takeover': {
    lane: name('the lane name'),
    owner: context("the lane owner's name"),
    machine: name('the machine id'),
    reason: prose('the reason for the takeover'),
  },
  'lock main': {
    kind: fixed('publishing, published or accept (the schema checks it)'),
    from: fixed('a commit id: 40 to 64 hex digits (the schema checks it)'),
    to: fixed('a commit id: 40 to 64 hex digits (the schema checks it)'),
    commit: fixed('a commit id: 40 to 64 hex digits (the schema checks it)'),
    expected: fixed('a commit id: 40 to 64 hex digits (the schema checks it)'),
    lane: name('the lane name'),
    owner: context("the accepting human's name"),
    machine: name('the machine id'),
  },
  'socket actor': actorFields('actor'),
} as const satisfies Record<string, Record<string, FieldRule>>

export type WireShape = keyof typeof wireFields

/** A secret found in a field: where (`payload.recipients.1`, as zod names paths), which field, which kinds. */
export interface SecretFinding {
  readonly path: string
  readonly field: FreeTextField
  readonly kinds: readonly string[]
}

/** A string at a path the table does not know is treated as a name: the strictest kind. */
function ruleAt(shape: WireShape, path: string): FieldRule {
  return (wireFields[shape] as Record<string, FieldRule>)[path] ?? name(path)
}

/**
 * The first free-text field of `value` (a record or request of `shape`) holding a secret, of any
 * kind; null when none does. The server refuses on any finding: a client of this version redacts
 * context before it sends, so context still holding a secret comes from an older or broken one.
 */
export function findSecret(shape: WireShape, value: unknown): SecretFinding | null {
  let found: SecretFinding | null = null
  visitStrings(value, '', '', (key, path, text) => {
    if (found !== null) return text
    const rule = ruleAt(shape, key)
    if (rule.kind === 'not-free-text') return text
    const kinds = secretKindsIn(text)
    if (kinds.length > 0) found = { path, field: rule, kinds }
    return text
  })
  return found
}

/**
 * The rule at a write: a secret in a name or prose field is refused (a SangamError naming the
 * field and the kind), context is redacted. Returns what to store and share.
 */
export function guardWrite<T>(shape: WireShape, value: T): T {
  return visitStrings(value, '', '', (key, _path, text) => {
    const rule = ruleAt(shape, key)
    return rule.kind === 'not-free-text' ? text : applyFreeTextRule(rule, text)
  }) as T
}

/**
 * What leaves the machine or comes from the server: context is redacted; a name or prose field
 * holding a secret is reported (`refused`), so the caller keeps the record back. A record from the
 * server gets `redactAll`: its writer is not here to be asked.
 */
export function redactForWire<T>(
  shape: WireShape,
  value: T,
  kinds: readonly FreeTextKind[] = ['context'],
): { readonly value: T; readonly refused: SecretFinding | null } {
  let refused: SecretFinding | null = null
  const redacted = visitStrings(value, '', '', (key, path, text) => {
    const rule = ruleAt(shape, key)
    if (rule.kind === 'not-free-text') return text
    if (kinds.includes(rule.kind)) return scrubSecrets(text)
    if (refused === null && refusesSecrets(rule.kind)) {
      const found = secretKindsIn(text)
      if (found.length > 0) refused = { path, field: rule, kinds: found }
    }
    return text
  }) as T
  return { value: redacted, refused }
}

/** `redactForWire` for every free-text kind: nothing is refused, everything is redacted. */
export const redactAll: readonly FreeTextKind[] = ['name', 'prose', 'context']

/** A lease the server lists (`GET …/leases`), redacted as the record that granted it would be. */
export function redactServedLease<T>(lease: T): T {
  return redactForWire('lease.granted', { payload: { lease } }, redactAll).value.payload.lease
}

/** The refusal `guardWrite` throws, for a caller that found the secret with `findSecret`. */
export function refusalOf(finding: SecretFinding): Error {
  return secretRefusal(finding.field.label, finding.kinds)
}

/**
 * Copies `value` with every string replaced by `visit(key, path, text)`: `key` is the table's
 * path (`payload.recipients[]`), `path` the concrete one (`payload.recipients.1`). Unchanged
 * parts are returned as they are, so a value without secrets is not copied.
 */
function visitStrings(
  value: unknown,
  key: string,
  path: string,
  visit: (key: string, path: string, text: string) => string,
): unknown {
  if (typeof value === 'string') return visit(key, path, value)
  if (Array.isArray(value)) {
    let changed = false
    const next = value.map((item, index) => {
      const mapped = visitStrings(item, `${key}[]`, `${path}.${index}`, visit)
      changed ||= mapped !== item
      return mapped
    })
    return changed ? next : value
  }
  if (isRecord(value)) {
    let changed = false
    const next: Record<string, unknown> = {}
    for (const [field, item] of Object.entries(value)) {
      const mapped = visitStrings(
        item,
        key === '' ? field : `${key}.${field}`,
        path === '' ? field : `${path}.${field}`,
        visit,
      )
      changed ||= mapped !== item
      next[field] = mapped
    }
    return changed ? next : value
  }
  return value
}
