import type { Hono } from 'hono'
import { thisMachine } from '../identity/services/this-machine.ts'
import { laneLog, laneStatus } from '../lanes/services/lane-status.ts'
import { openProjectLanes } from '../project/services/project-lanes.ts'
import { machineNames } from '../room/services/machine-names.ts'
import { ready } from '../room/services/ready.ts'
import { isSangamError } from '../shared/sangam-error.ts'
import type { UiContext } from './ui-context.ts'

/** How many of the latest publishes the page lists. */
const publishesShown = 20

/**
 * Lanes: the `ready` matrix (which worktree merges into main, which collide with which, on which
 * files), every lane as `sangam status` shows it, the integration lock (the team's when attached)
 * and the latest publishes of every machine from `sangam log`, each with its machine. A part that cannot be read (no main branch yet, a
 * git that fails, the team server away) says why in its own `…Error` field instead of losing the
 * others.
 */
export function laneRoutes(app: Hono, ctx: UiContext): void {
  app.get('/api/lanes', async (c) => {
    let verdict: Awaited<ReturnType<typeof ready>> | null = null
    let readyError: { code: string; message: string } | null = null
    try {
      verdict = await ready(ctx.project.db, ctx.patternRoot, null, { now: ctx.project.clock.now() })
    } catch (error) {
      if (!isSangamError(error)) throw error
      readyError = { code: error.code, message: error.message }
    }
    let status: Awaited<ReturnType<typeof laneStatus>> | null = null
    let publishes: ReturnType<typeof laneLog> = []
    let lanesError: { code: string; message: string } | null = null
    try {
      const team = openProjectLanes(ctx.project, {
        cwd: ctx.patternRoot,
        log: ctx.log,
        random: ctx.random,
        pid: process.pid,
        nodeBinDir: null,
      })
      status = await laneStatus(team.world, team)
      publishes = laneLog(team.world, machineNames(ctx.project.db, thisMachine(ctx.project.env.sangamHome)))
        .filter((event) => event.type.startsWith('sync.published'))
        .reverse()
        .slice(0, publishesShown)
    } catch (error) {
      if (!isSangamError(error)) throw error
      lanesError = { code: error.code, message: error.message }
    }
    return c.json({
      // `sangam ready --json`'s shape, which says a main moved outside sangam too (D300).
      ready: verdict === null ? null : { ...verdict, mainOutside: status?.mainOutside ?? null },
      readyError,
      lanes: status?.lanes ?? [],
      lock: status?.lock ?? null,
      main: status === null ? null : { branch: status.mainBranch, commit: status.main },
      guard: status?.guard ?? null,
      mainOutside: status?.mainOutside ?? null,
      publishes,
      lanesError,
    })
  })
}
