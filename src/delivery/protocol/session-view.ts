import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { deliveryVendors } from './delivery-vendor.ts'

/** A session as `sangam sessions --json` lists it, with how delivery would reach it. */
export const sessionViewSchema = z.object({
  vendor: z.enum(deliveryVendors),
  id: z.string(),
  handle: z.string(),
  title: z.string().nullable(),
  worktree: z.string().nullable(),
  /** The machine it lives on, by id, and by readable name. */
  machine: z.string(),
  machineName: z.string(),
  /** ms epoch of the last sign of it (presence change or captured event). */
  lastSeenAt: z.number(),
  presence: z.enum(['online', 'idle', 'offline']),
  /** `running`: a turn runs; `live`: it can be woken in place; `resume`: delivery continues it headless; `active-elsewhere`: open in a terminal; `remote`: on another machine, whose daemon delivers; `unavailable`: no CLI here. */
  delivery: z.enum(['running', 'live', 'resume', 'active-elsewhere', 'remote', 'unavailable']),
  why: z.string(),
})
export type SessionView = DeepReadonly<z.infer<typeof sessionViewSchema>>

/** A turn as `start`, `stop` and `send` show it (and their MCP tools). */
export const turnViewSchema = z.object({
  id: z.number(),
  vendor: z.string(),
  sessionId: z.string(),
  channel: z.string(),
  cause: z.string(),
  why: z.string(),
  messages: z.array(z.string()),
  state: z.string(),
  pid: z.number().nullable(),
  worktree: z.string().nullable(),
  logFile: z.string().nullable(),
  exitCode: z.number().nullable(),
  detail: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
})
export type TurnView = DeepReadonly<z.infer<typeof turnViewSchema>>

/** What `send --json` prints and `room_send` returns. */
export const sendResultViewSchema = z.object({
  messageId: z.string(),
  session: z.object({ vendor: z.string(), id: z.string() }),
  /** `started`: a turn carries it now; `pending`: it waits (a running turn, the cooldown, the next prompt); `forwarded`: posted for the daemon of the session's machine; `refused` / `failed`: why. */
  outcome: z.enum(['started', 'pending', 'refused', 'failed', 'pasted', 'forwarded']),
  channel: z.string().nullable(),
  reason: z.string().nullable(),
  /** For a send waiting out the cooldown: when it passes (ISO); null otherwise. */
  retryAt: z.string().nullable(),
  turn: turnViewSchema.nullable(),
})
export type SendResult = DeepReadonly<z.infer<typeof sendResultViewSchema>>
