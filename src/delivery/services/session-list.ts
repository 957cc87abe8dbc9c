import { vendorFor } from '../../agents/vendors.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { thisMachine } from '../../identity/services/this-machine.ts'
import { sessionLastAt } from '../../memory/store/session-activity.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import { roomOptions } from '../../room/core/settings.ts'
import { loadDirectory } from '../../room/services/directory.ts'
import { machineNames } from '../../room/services/machine-names.ts'
import { readPresence } from '../../room/store/presence-table.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { isDeliveryVendor } from '../core/delivery-vocabulary.ts'
import type { SessionView } from '../protocol/session-view.ts'
import { liveTurnOf } from '../store/delivery-turn-table.ts'
import { firstHumanText } from '../store/session-title.ts'
import type { DeliveryRouter } from './delivery-router.ts'

/** A session as `sessions` lists it. */
export type { SessionView } from '../protocol/session-view.ts'

/**
 * This project's sessions of the vendors delivery reaches, newest first, with how delivery would reach each:
 * the room's directory of sessions (every machine's, whether their hooks or capture brought them
 * in), the same sessions `targets`, `send`, the board and the dashboard show.
 */
export function listSessions(project: ProjectContext, router: DeliveryRouter, limit: number): SessionView[] {
  const here = thisMachine(project.env.sangamHome)
  const names = machineNames(project.db, here)
  const directory = loadDirectory(project.db, { machine: here.id, worktrees: project.repo.worktrees })
  const handles = new Map(
    directory.agents.map((agent) => [`${agent.vendor}:${agent.sessionId}`, agent.handle]),
  )
  const views: SessionView[] = []
  for (const row of readPresence(project.db)) {
    if (!isDeliveryVendor(row.vendor)) continue
    views.push({
      vendor: row.vendor,
      id: row.sessionId,
      handle: handles.get(`${row.vendor}:${row.sessionId}`) ?? row.handle,
      title: null,
      worktree: row.worktree,
      machine: row.machine,
      machineName: names.label(row.machine),
      lastSeenAt: Math.max(row.updatedAt, sessionLastAt(project.db, row.sessionId) ?? 0),
      presence: row.state,
      delivery: 'unavailable',
      why: '',
    })
  }
  const shown = views.sort((a, b) => b.lastSeenAt - a.lastSeenAt).slice(0, limit)
  const policy = readOptionGroup(project.db, roomOptions).wakeOnTag
  return shown.map((view) => {
    const state = deliveryStateOf(project, router, view, here.id, policy)
    return { ...view, title: sessionTitle(project, view.id), ...state }
  })
}

function deliveryStateOf(
  project: ProjectContext,
  router: DeliveryRouter,
  view: SessionView,
  machine: string,
  policy: string,
): Pick<SessionView, 'delivery' | 'why'> {
  // Another machine's session: its own daemon delivers there (docs/room.md, "Delivery"); this
  // machine never starts, resumes or pastes into it.
  if (view.machine !== machine) {
    if (view.presence === 'online')
      return { delivery: 'running', why: `a turn runs on ${view.machineName} (its hooks say so)` }
    return {
      delivery: 'remote',
      why:
        policy === 'off'
          ? `it lives on ${view.machineName}: a tag or send reaches it there at its next prompt (room.wake-on-tag is off)`
          : `it lives on ${view.machineName}: a tag or send reaches it through the daemon there`,
    }
  }
  // A session at rest whose waiter listens waits at no question (D375): Claude Code's own list, a
  // second or more to spawn, is not asked for it.
  const wakes = view.presence === 'idle' && router.wakeable(view.vendor, view.id)
  const vendor = vendorFor(view.vendor)
  const question =
    vendor.delivery?.listsLiveSessions === true && view.presence !== 'offline' && !wakes
      ? router.atQuestion(view.id)
      : null
  if (question !== null)
    return {
      delivery: 'active-elsewhere',
      why: `it waits at a question for a person (an API key to approve, a permission): answer it in its terminal, or with claude attach ${question} for a background session; tags follow when that turn ends`,
    }
  if (liveTurnOf(project.db, view.vendor, view.id) !== null)
    return { delivery: 'running', why: 'a turn sangam started runs' }
  if (view.presence === 'online') return { delivery: 'running', why: 'a turn runs (its hooks say so)' }
  if (wakes)
    return {
      delivery: 'live',
      why: `wakes in place: ${vendor.delivery?.wakeInPlace ?? 'no'}`,
    }
  const cli = router.vendorCli(view.vendor)
  if (view.presence === 'idle' && router.openInClaude(view) !== false) {
    const notLive =
      vendor.delivery?.listsLiveSessions === true ? router.wakeUnavailable(view.vendor, view.id) : null
    return {
      delivery: 'active-elsewhere',
      why: `open in a terminal: it gets tags at its next prompt${notLive === null ? '' : `; not woken in place: ${notLive}`}`,
    }
  }
  if (cli.path === null)
    return { delivery: 'unavailable', why: `the ${view.vendor} CLI is not installed here` }
  return { delivery: 'resume', why: `a tag continues it through ${cli.path}` }
}

function sessionTitle(project: ProjectContext, sessionId: string): string | null {
  const text = firstHumanText(project.db, sessionId)
  if (text === null) return null
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`
}

/**
 * The session a command names: its id, an unambiguous prefix of it (8 characters or more), or
 * its `@handle`. NOT_FOUND naming `sangam sessions` when none matches; INVALID_INPUT for two.
 */
export function resolveSession(project: ProjectContext, router: DeliveryRouter, named: string): SessionView {
  const wanted = named.trim().replace(/^@/, '')
  const all = listSessions(project, router, 1000)
  const exact = all.filter((view) => view.id === wanted || view.handle === wanted)
  const found =
    exact.length > 0 ? exact : wanted.length >= 8 ? all.filter((view) => view.id.startsWith(wanted)) : []
  if (found.length === 1) return found[0] as SessionView
  if (found.length === 0)
    throw new SangamError(
      ErrorCode.NotFound,
      `no Claude Code, Codex, Gemini CLI or opencode session "${named}" in this project: sangam sessions lists them`,
    )
  throw new SangamError(
    ErrorCode.InvalidInput,
    `"${named}" could be ${found.map((view) => `${view.vendor} ${view.id}`).join(' or ')}; name one by its whole id`,
  )
}
