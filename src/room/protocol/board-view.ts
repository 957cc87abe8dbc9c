import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/** A card of the board: one thread in its column (room/core/board.ts says which column). */
export const boardCardViewSchema = z.object({
  threadId: z.string(),
  title: z.string(),
  /** One line: why it is in its column. */
  detail: z.string(),
  /** Who works on it (tokens); for `blocked`, who it waits on; for `done`, its participants. */
  owners: z.array(z.string()),
})
export type BoardCard = DeepReadonly<z.infer<typeof boardCardViewSchema>>

/** The board's four columns, derived from the threads when read. */
export const boardColumnsViewSchema = z.object({
  backlog: z.array(boardCardViewSchema),
  doing: z.array(boardCardViewSchema),
  blocked: z.array(boardCardViewSchema),
  done: z.array(boardCardViewSchema),
})
export type Board = DeepReadonly<z.infer<typeof boardColumnsViewSchema>>
export type BoardColumn = keyof Board

/**
 * How current the collisions a read shows are: the overlap picture and the conflict threads that
 * `board`, `threads` and `alerts` (and their MCP tools, and the dashboard's Board) read.
 */
export const collisionsViewSchema = z.object({
  /**
   * `daemon`: `sangam up` runs here, its rounds keep them current. `looked`: no daemon runs, so
   * this read looked itself, as a round would. `recent`: no daemon runs, and a look of under 15 s
   * ago stands. `not-looked`: no daemon runs and this read did not look (`note` says why).
   */
  source: z.enum(['daemon', 'looked', 'recent', 'not-looked']),
  /** When anyone last looked (ms epoch), and who; null when nobody ever did in this store. */
  lookedAt: z.number().nullable(),
  lookedBy: z.enum(['daemon', 'read']).nullable(),
  /** What a reader should know when the collisions shown may be out of date; null when they are not. */
  note: z.string().nullable(),
})
export type CollisionsSeen = DeepReadonly<z.infer<typeof collisionsViewSchema>>
