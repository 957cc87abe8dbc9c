import type { Hono } from 'hono'
import { ready } from '../services/room/ready.ts'
import { isSangamError } from '../shared/sangam-error.ts'
import type { UiContext } from './ui-context.ts'

/**
 * Lanes: the `ready` matrix (which worktree merges into main, which collide with which, on which
 * files). The lanes themselves, the integration lock and the publishes come from the lanes
 * feature, which has not landed: until it does they are `[]`, `null` and `[]` (docs/ui.md).
 */
export function laneRoutes(app: Hono, ctx: UiContext): void {
  app.get('/api/lanes', async (c) => {
    let verdict: Awaited<ReturnType<typeof ready>> | null = null
    let readyError: { code: string; message: string } | null = null
    try {
      verdict = await ready(ctx.project.db, ctx.patternRoot, null, { now: ctx.project.clock.now() })
    } catch (error) {
      // No main branch yet, a git that fails: the page says why instead of losing the other parts.
      if (!isSangamError(error)) throw error
      readyError = { code: error.code, message: error.message }
    }
    return c.json({ ready: verdict, readyError, lanes: [], lock: null, publishes: [] })
  })
}
