import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/**
 * A main that moved by a route sangam did not take (D300): where, to what, from what, and the way
 * out. `mainOutside` of `status`, `board` and their MCP tools; an agent tells its human, accepting
 * or restoring is the human's (`accept`, `restore`).
 */
export const mainOutsideViewSchema = z.object({
  /** `here`: this machine's main; `remote`: the team's shared remote's (its team server's record). */
  where: z.enum(['here', 'remote']),
  branch: z.string(),
  /** Main's commit now; null when the branch is gone. */
  commit: z.string().nullable(),
  /** The commit sangam last moved it to (or a person accepted). */
  recorded: z.string(),
  recordedAt: z.number(),
  /** `moved`/`published`, `adopted` or `accepted`, and by whom when accepted. */
  recordedHow: z.string(),
  recordedBy: z.string().nullable(),
  /** The one command that accepts it (run in a lane); null when main is gone (restore it). */
  accept: z.string().nullable(),
  /** The exact command that saves it under `refs/sangam/outside/` and puts the recorded commit back. */
  restore: z.string(),
})
export type MainOutside = DeepReadonly<z.infer<typeof mainOutsideViewSchema>>
