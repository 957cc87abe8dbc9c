import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'

/** A note as `sangam note --json` prints it and `ctx_note` returns it. */
export const noteViewSchema = z.object({
  id: z.string(),
  at: z.string(),
  author: z.string(),
  sessionId: z.string(),
  branch: z.string().nullable(),
  /** The text as stored. */
  text: z.string(),
})
export type NoteResult = DeepReadonly<z.infer<typeof noteViewSchema>>
