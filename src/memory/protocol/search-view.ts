import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { eventSchema } from './event.ts'

/** One search hit with its attribution: `search --json` and `ctx_search`; the event's own fields as the event has them. */
export const searchHitViewSchema = eventSchema
  .pick({
    id: true,
    kind: true,
    vendor: true,
    cliVersion: true,
    sessionId: true,
    author: true,
    at: true,
    cwd: true,
    branch: true,
    toolName: true,
  })
  .extend({
    /** The text around the matched words, which are marked «like this». */
    snippet: z.string(),
    /** The event's text, cut at `hitTextChars`. */
    text: z.string(),
    truncated: z.boolean(),
    score: z.number(),
  })
export type SearchHit = DeepReadonly<z.infer<typeof searchHitViewSchema>>

/** What `sangam search --json` prints and `ctx_search` returns. */
export const searchResultViewSchema = z.object({
  terms: z.array(z.string()),
  /** The window searched, ISO; null when open. */
  since: z.string().nullable(),
  until: z.string().nullable(),
  hits: z.array(searchHitViewSchema),
})
export type SearchResult = DeepReadonly<z.infer<typeof searchResultViewSchema>>
