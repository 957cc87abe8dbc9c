import { realpathSync } from 'node:fs'
import { sep } from 'node:path'
import { loadMachineId } from '../../config/machine-id.ts'
import type { DeliveryRouter } from '../../delivery/services/delivery-router.ts'
import { sendToSession } from '../../delivery/services/send-to-session.ts'
import { listSessions, type SessionView } from '../../delivery/services/session-list.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { TaskCourier } from '../../lanes/services/task-courier.ts'
import type { RoomScope } from '../../room/services/room-scope.ts'
import { isSangamError } from '../../shared/sangam-error.ts'

/** What delivery needs to send: the room as the integrator posts in it, and this process's router. */
export interface DeliveryReach {
  readonly scope: RoomScope
  readonly router: DeliveryRouter
}

/** How many of the project's sessions are looked through for the lane's own. */
const sessionsLooked = 1000

/**
 * A semantic task reaches the lane's own agent, whatever its vendor, through delivery (D167): the
 * newest session of this machine working in the lane's worktree is sent the task, and delivery
 * picks the channel (hand-over at its Stop, a wake in place, a resume, its next prompt or its tmux
 * pane) under its guards, writing why in its ledger. A lane with no such session, or one delivery
 * refuses (open in a terminal, no CLI), falls back to `fallback` (the lane's tmux pane); when
 * neither can carry it the task is refused with both reasons and `sync` restores the lane.
 */
export class DeliveryTaskCourier implements TaskCourier {
  readonly #project: ProjectContext
  readonly #open: () => DeliveryReach
  readonly #fallback: TaskCourier

  /** `open` makes the room and the router only when a task is handed over (status never pays for them). */
  constructor(project: ProjectContext, open: () => DeliveryReach, fallback: TaskCourier) {
    this.#project = project
    this.#open = open
    this.#fallback = fallback
  }

  async deliver(input: { lane: string; worktree: string; prompt: string }) {
    const { scope, router } = this.#open()
    const session = this.#laneSession(router, input.worktree)
    let refusal = `no Claude Code, Codex, Gemini CLI or opencode session of this machine has worked in lane ${input.lane}`
    if (session !== null) {
      try {
        const sent = await sendToSession(this.#project, scope, router, {
          session: session.id,
          text: input.prompt,
        })
        if (sent.outcome === 'started' || sent.outcome === 'pasted' || sent.outcome === 'pending')
          return {
            delivered: true as const,
            channel: `delivery:${sent.channel ?? 'pending'}:${session.vendor}:${session.id}`,
          }
        refusal = `delivery to ${session.vendor} session ${session.id} was ${sent.outcome}: ${sent.reason ?? 'no reason given'}`
      } catch (error) {
        // A vendor CLI that is missing, a session that cannot be resolved: the pane may still carry it.
        if (!isSangamError(error)) throw error
        refusal = `delivery to ${session.vendor} session ${session.id} failed: ${error.message}`
      }
    }
    const pasted = await this.#fallback.deliver(input)
    if (pasted.delivered) return pasted
    return { delivered: false as const, reason: `${refusal}; ${pasted.reason}` }
  }

  /** The newest session with presence on this machine whose worktree is the lane's. */
  #laneSession(router: DeliveryRouter, worktree: string): SessionView | null {
    const machine = loadMachineId(this.#project.env.sangamHome)
    const lane = canonical(worktree)
    const inLane = (path: string | null) =>
      path !== null && (canonical(path) === lane || canonical(path).startsWith(`${lane}${sep}`))
    const sessions = listSessions(this.#project, router, sessionsLooked)
    return sessions.find((view) => view.machine === machine && inLane(view.worktree)) ?? null
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
