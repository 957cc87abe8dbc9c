import { z } from 'zod'

/**
 * The team's integration lock through the server: exactly one holder per project, a fencing token
 * that grows with every grant, a heartbeat, and takeovers of a silent holder that the server
 * records. Like leases, a refusal is an answer (HTTP 200 with the decision), not an error; the
 * server keeps no settings, so a takeover says after how long a silence it counts as stale.
 */
const name = z.string().min(1).max(200)

export const lockHolderSchema = z.object({
  lane: name,
  /** The human the lane belongs to. */
  owner: name,
  /** The machine the lane lives on (`config/machine-id.ts`): lane names are per machine. */
  machine: name,
  task: name.nullable(),
  /** ms epoch (the server's clock) of the grant. */
  since: z.number().int().nonnegative(),
  heartbeatAt: z.number().int().nonnegative(),
  /** Names this tenure; every heartbeat and release must carry it. */
  token: z.number().int().positive(),
})
export type ServerLockHolder = z.infer<typeof lockHolderSchema>

/** `POST …/lock/acquire`. */
export const lockAcquireRequestSchema = z.object({
  lane: name,
  owner: name,
  machine: name,
  task: name.nullable(),
})
export type LockAcquireRequest = z.infer<typeof lockAcquireRequestSchema>

/** The holder after an acquire: ours when granted, whoever holds it when not. */
export const lockAcquireAnswerSchema = z.object({
  granted: z.boolean(),
  holder: lockHolderSchema,
})
export type LockAcquireAnswer = z.infer<typeof lockAcquireAnswerSchema>

/** `POST …/lock/heartbeat`: a sign of life (and the task now held) for tenure `token`. */
export const lockHeartbeatRequestSchema = z.object({
  token: z.number().int().positive(),
  task: name.nullable(),
})
export type LockHeartbeatRequest = z.infer<typeof lockHeartbeatRequestSchema>

/** `alive: false`: tenure `token` no longer holds the lock (released, or taken over). */
export const lockHeartbeatAnswerSchema = z.object({ alive: z.boolean() })

/** `POST …/lock/release`: frees the lock if tenure `token` still holds it. */
export const lockReleaseRequestSchema = z.object({ token: z.number().int().positive() })
export type LockReleaseRequest = z.infer<typeof lockReleaseRequestSchema>

export const lockReleaseAnswerSchema = z.object({ released: z.boolean() })

/**
 * `POST …/lock/takeover`: takes a stale lock (no heartbeat for `staleAfterMs`), or a free one.
 * `reason` is recorded with the previous holder.
 */
export const lockTakeoverRequestSchema = z.object({
  lane: name,
  owner: name,
  machine: name,
  reason: z.string().trim().min(1).max(2000),
  staleAfterMs: z
    .number()
    .int()
    .min(1000)
    .max(30 * 86_400_000),
})
export type LockTakeoverRequest = z.infer<typeof lockTakeoverRequestSchema>

export const lockTakeoverAnswerSchema = z.union([
  z.object({
    taken: z.literal(true),
    holder: lockHolderSchema,
    /** Whose tenure the takeover ended; null when the lock was free. */
    previous: lockHolderSchema.nullable(),
  }),
  z.object({
    taken: z.literal(false),
    /** The holder, still alive: its last heartbeat is younger than `staleAfterMs`. */
    holder: lockHolderSchema,
  }),
])
export type LockTakeoverAnswer = z.infer<typeof lockTakeoverAnswerSchema>

/** One entry of the lock's history, newest last. */
export const lockEventSchema = z.object({
  at: z.number().int().nonnegative(),
  kind: z.enum(['acquired', 'released', 'taken-over']),
  holder: lockHolderSchema,
  /** For `taken-over`: the tenure that was ended. */
  previous: lockHolderSchema.nullable(),
  reason: z.string().nullable(),
})
export type LockEvent = z.infer<typeof lockEventSchema>

const commit = z.string().regex(/^[0-9a-f]{40,64}$/)

/**
 * The team's main as sangam last moved it (D300, D302): the commit the last publish pushed to the
 * shared remote (`from` is what it moved from, set while that push may still be under way, so a
 * machine fetching meanwhile finds either), or a commit a person accepted. A remote main that is
 * neither was moved outside sangam.
 */
export const teamMainSchema = z.object({
  commit,
  from: commit.nullable(),
  how: z.enum(['published', 'accepted']),
  lane: name,
  owner: name,
  machine: name,
  /** ms epoch (the server's clock). */
  at: z.number().int().nonnegative(),
})
export type TeamMain = z.infer<typeof teamMainSchema>

/**
 * `POST …/lock/main`: `publishing` (before the push; only the lock's holder, by its token),
 * `published` (after it: the push took, `from` is dropped) and `accept` (a person accepts a remote
 * main moved outside sangam, as a compare-and-swap from the record they saw, `expected`).
 */
export const lockMainRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('publishing'),
    token: z.number().int().positive(),
    from: commit.nullable(),
    to: commit,
  }),
  z.object({ kind: z.literal('published'), token: z.number().int().positive(), commit }),
  z.object({
    kind: z.literal('accept'),
    commit,
    expected: commit.nullable(),
    lane: name,
    owner: name,
    machine: name,
  }),
])
export type LockMainRequest = z.infer<typeof lockMainRequestSchema>

/** `recorded: false`: not the holder (publishing, published) or not the record seen (accept). */
export const lockMainAnswerSchema = z.object({
  recorded: z.boolean(),
  main: teamMainSchema.nullable(),
})
export type LockMainAnswer = z.infer<typeof lockMainAnswerSchema>

/** `GET …/lock`: the holder (or null), the server's clock, the latest events and the team's main. */
export const lockStateSchema = z.object({
  holder: lockHolderSchema.nullable(),
  now: z.number().int().nonnegative(),
  events: z.array(lockEventSchema),
  /** Absent from a server older than the team's main record: read as none. */
  main: teamMainSchema.nullable().default(null),
})
export type LockState = z.infer<typeof lockStateSchema>
