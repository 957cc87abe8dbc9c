import type { Hono } from 'hono'
import { z } from 'zod'
import { eventKindSchema, vendorSchema } from '../memory/protocol/event.ts'
import { activityChart } from '../memory/services/activity-chart.ts'
import { MemoryThread } from '../memory/services/thread.ts'
import {
  defaultTimelineLimit,
  maxTimelineLimit,
  type TimelineActor,
  timeline,
} from '../memory/services/timeline.ts'
import { projectDirectory } from '../room/services/open-room.ts'
import { parseQuery } from './request-input.ts'
import type { UiContext } from './ui-context.ts'

const count = (max: number) =>
  z
    .string()
    .regex(/^\d{1,5}$/, 'a whole number')
    .transform(Number)
    .pipe(z.number().int().min(0).max(max))

const timelineQuery = z.object({
  actor: z.string().min(1).optional(),
  vendor: vendorSchema.optional(),
  kind: z
    .string()
    .transform((text) => text.split(',').map((kind) => kind.trim().replaceAll('-', '_')))
    .pipe(z.array(eventKindSchema))
    .optional(),
  worktree: z.string().startsWith('/', 'an absolute worktree path').optional(),
  q: z.string().max(1000).optional(),
  since: z.string().max(40).optional(),
  before: z.string().max(40).optional(),
  limit: count(maxTimelineLimit).pipe(z.number().min(1)).optional(),
})

const threadQuery = z.object({ before: count(1000).optional(), after: count(1000).optional() })

/** Memory: the timeline (filters, search, pages), one moment's thread, and the charts. */
export function memoryRoutes(app: Hono, ctx: UiContext): void {
  /** Session id → handle in the room, from the directory as it is now. */
  const handles = (): ((sessionId: string) => string | null) => {
    const directory = projectDirectory(ctx.project, ctx.random)
    const bySession = new Map(directory.agents.map((agent) => [agent.sessionId, agent.handle]))
    return (sessionId) => bySession.get(sessionId) ?? null
  }

  app.get('/api/timeline', (c) => {
    const query = parseQuery(c, timelineQuery)
    if (!query.ok) return query.response
    const { actor, vendor, kind, worktree, q, since, before, limit } = query.value
    return c.json(
      timeline(
        ctx.project.db,
        ctx.project.clock,
        {
          actor: actor === undefined ? undefined : resolveActor(ctx, actor),
          vendor,
          kinds: kind,
          worktree,
          q,
          since,
          before,
          limit: limit ?? defaultTimelineLimit,
        },
        handles(),
      ),
    )
  })

  app.get('/api/timeline/:eventId/thread', (c) => {
    const query = parseQuery(c, threadQuery)
    if (!query.ok) return query.response
    return c.json(new MemoryThread(ctx.project.db).thread(c.req.param('eventId'), query.value))
  })

  app.get('/api/charts', (c) => c.json(activityChart(ctx.project.db, ctx.project.clock.now(), handles())))
}

/** `actor`: an agent's handle (with or without `@`) is its session; anything else is a human's name. */
function resolveActor(ctx: UiContext, actor: string): TimelineActor {
  const handle = actor.replace(/^@/, '')
  const agent = projectDirectory(ctx.project, ctx.random).agents.find((each) => each.handle === handle)
  return agent === undefined ? { author: actor } : { sessionId: agent.sessionId }
}
