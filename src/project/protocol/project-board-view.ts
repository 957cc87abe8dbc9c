import { z } from 'zod'
import { boardLaneViewSchema } from '../../lanes/protocol/board-lane-view.ts'
import { laneLockViewSchema } from '../../lanes/protocol/lane-status-view.ts'
import { mainOutsideViewSchema } from '../../lanes/protocol/main-outside-view.ts'
import { boardColumnsViewSchema, collisionsViewSchema } from '../../room/protocol/board-view.ts'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/** `sangam board --json`, MCP `room_board` and the dashboard's `/api/board`: the columns, then the lanes and the lock. */
export const projectBoardViewSchema = z.object({
  columns: boardColumnsViewSchema,
  /** Every lane as `sangam status` reads it; empty in a project without lanes. */
  lanes: z.array(boardLaneViewSchema),
  /** The integration lock (the team server's when attached); null when free or without lanes. */
  lock: laneLockViewSchema.nullable(),
  /** Why the lanes part could not be read (the team server away, git failing), or null. */
  lanesError: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Main moved outside sangam, as `sangam status` says it (D300); null otherwise. */
  mainOutside: mainOutsideViewSchema.nullable(),
  /** How current the conflict threads among the columns are (`collisionsOnRead`). */
  collisions: collisionsViewSchema,
})
export type ProjectBoard = DeepReadonly<z.infer<typeof projectBoardViewSchema>>
