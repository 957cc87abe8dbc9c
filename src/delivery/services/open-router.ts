import { dirname } from 'node:path'
import { type ClaudeAgent, listClaudeAgents } from '../../agents/claude/services/claude-live-sessions.ts'
import { claudeWake } from '../../agents/claude/services/claude-wake.ts'
import type { WakeInPlace } from '../../agents/wake-in-place.ts'
import { projectDir } from '../../config/data-paths.ts'
import { loadMachineId } from '../../config/machine-id.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Random } from '../../shared/random.ts'
import { DeliveryRouter } from './delivery-router.ts'

/** What the process that delivers brings to its router: itself, its log and randomness, where CLIs are. */
export interface DeliveryRuntime {
  readonly pid: number
  readonly log: Logger
  readonly random: Random
  /** The directory of the running node (npm's global bin is beside it). */
  readonly nodeBinDir: string | null
  readonly wake?: WakeInPlace | undefined
  /** Claude Code's wake in place; absent → the project's wake waiters (claude-wake.ts). */
  readonly claudeWake?: WakeInPlace | undefined
  readonly earlyExitMs?: number | undefined
}

/** The router as a CLI, an MCP server or the daemon opens it on a project. */
export function openDeliveryRouter(project: ProjectContext, runtime: DeliveryRuntime): DeliveryRouter {
  const { env } = project
  let live: { at: number; agents: readonly ClaudeAgent[] | null } | null = null
  const dataDir = projectDir(env.sangamHome, project.repo.projectId)
  const router: DeliveryRouter = new DeliveryRouter({
    db: project.db,
    projectDir: dataDir,
    machine: loadMachineId(env.sangamHome, runtime.random),
    worktrees: project.repo.worktrees,
    fallbackCwd: project.repo.root,
    clock: project.clock,
    log: runtime.log,
    pid: runtime.pid,
    places: {
      path: env.path,
      home: env.vendorCliEnv.HOME ?? dirname(env.sangamHome),
      nodeBinDir: runtime.nodeBinDir,
      env: env.vendorCliEnv,
    },
    vendorEnv: env.vendorCliEnv,
    wake: runtime.wake,
    // Every process that delivers (the daemon, send, MCP) reads the same waiters' records.
    claudeWake: runtime.claudeWake ?? claudeWake({ projectDir: dataDir }),
    earlyExitMs: runtime.earlyExitMs,
    claudeAgents: () => {
      // Asked at most every 5 s: a spawn of `claude` per look would be most of the daemon's cost.
      const now = project.clock.now()
      if (live === null || now - live.at > 5000) {
        // The CLI lookup has read its `--help` already (kept a while): only `agents --json` runs here.
        const cli = router.vendorCli('claude')
        live = {
          at: now,
          agents: cli.path === null || !cli.listsAgents ? null : listClaudeAgents(env.vendorCliEnv, cli.path),
        }
      }
      return live.agents
    },
  })
  return router
}
