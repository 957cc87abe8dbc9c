import { z } from 'zod'
import type { DeepReadonly } from '../../shared/deep-readonly.ts'
import { eventKindSchema, vendorSchema } from './event.ts'

/** One search hit with its attribution: `search --json`, `ctx_search` and the dashboard's timeline search. */
export const searchHitViewSchema = z.object({
  id: z.string(),
  kind: eventKindSchema,
  vendor: vendorSchema,
  cliVersion: z.string().nullable(),
  sessionId: z.string(),
  author: z.string(),
  at: z.string(),
  cwd: z.string().nullable(),
  branch: z.string().nullable(),
  toolName: z.string().nullable(),
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
