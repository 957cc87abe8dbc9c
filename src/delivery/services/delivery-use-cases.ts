import { dirname, resolve } from 'node:path'
import { projectDir } from '../../config/data-paths.ts'
import { loadMachineId } from '../../config/machine-id.ts'
import { machineNames, thisMachine } from '../../identity/services/machine-names.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { sessionLastAt } from '../../memory/store/session-activity.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import { roomOptions } from '../../room/core/settings.ts'
import { type ClaudeAgent, listClaudeAgents } from '../../room/services/claude-live-sessions.ts'
import { loadDirectory } from '../../room/services/directory.ts'
import { post } from '../../room/services/post.ts'
import type { RoomScope } from '../../room/services/room-scope.ts'
import { readPresence } from '../../room/store/presence-table.ts'
import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Random } from '../../shared/random.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'
import { isDeliveryVendor } from '../core/delivery-vocabulary.ts'
import { addDelivery, type DeliveryRow, recentDeliveries } from '../store/delivery-ledger.ts'
import {
  lastTurnAt,
  liveTurnOf,
  liveTurns,
  recentTurns,
  type TurnRow,
  updateTurn,
} from '../store/delivery-turn-table.ts'
import { firstHumanText } from '../store/session-title.ts'
import { claudeWake } from './claude-wake.ts'
import { DeliveryRouter, type SessionOutcome } from './delivery-router.ts'
import { isSameProcess } from './process-identity.ts'
import { senderKindOf } from './sender-kind.ts'
import type { WakeInPlace } from './wake-in-place.ts'

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

/** A session as `sessions` lists it. */
export interface SessionView {
  readonly vendor: DeliveryVendor
  readonly id: string
  readonly handle: string
  readonly title: string | null
  readonly worktree: string | null
  /** The machine it lives on, by id, and by readable name. */
  readonly machine: string
  readonly machineName: string
  /** ms epoch of the last sign of it (presence change or captured event). */
  readonly lastSeenAt: number
  readonly presence: 'online' | 'idle' | 'offline'
  /** `running`: a turn runs; `live`: it can be woken in place; `resume`: delivery continues it headless; `active-elsewhere`: open in a terminal; `remote`: on another machine, whose daemon delivers; `unavailable`: no CLI here. */
  readonly delivery: 'running' | 'live' | 'resume' | 'active-elsewhere' | 'remote' | 'unavailable'
  readonly why: string
}

/**
 * This project's Claude Code and Codex sessions, newest first, with how delivery would reach each:
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
  const question =
    view.vendor === 'claude' && view.presence !== 'offline' && !wakes ? router.atQuestion(view.id) : null
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
      why:
        view.vendor === 'codex'
          ? 'wakes in place: open through sangam codex, a tag starts a turn in it'
          : 'wakes in place: its wake waiter listens, a tag starts a turn in the open session',
    }
  const cli = router.vendorCli(view.vendor)
  if (view.presence === 'idle' && router.openInClaude(view) !== false) {
    const notLive = view.vendor === 'claude' ? router.wakeUnavailable(view.vendor, view.id) : null
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
      `no Claude Code or Codex session "${named}" in this project: sangam sessions lists them`,
    )
  throw new SangamError(
    ErrorCode.InvalidInput,
    `"${named}" could be ${found.map((view) => `${view.vendor} ${view.id}`).join(' or ')}; name one by its whole id`,
  )
}

/** What `send` and `room_send` answer. */
export interface SendResult {
  readonly messageId: string
  readonly session: { readonly vendor: string; readonly id: string }
  /** `started`: a turn carries it now; `pending`: it waits (a running turn, the cooldown, the next prompt); `forwarded`: posted for the daemon of the session's machine; `refused` / `failed`: why. */
  readonly outcome: 'started' | 'pending' | 'refused' | 'failed' | 'pasted' | 'forwarded'
  readonly channel: string | null
  readonly reason: string | null
  /** For a send waiting out the cooldown: when it passes (ISO); null otherwise. */
  readonly retryAt: string | null
  readonly turn: TurnView | null
}

/**
 * `send <session> TEXT`: posts the text to the room addressed to the session (so the room sees
 * it), records it in the ledger as a `send` in the same transaction, and weighs the session at
 * once with the same guards a tag has (no echo, one turn at a time, the cooldown, the loop budget
 * for agents), the room's policy aside: the caller asked for this turn. A session open in a
 * terminal is refused (`active-elsewhere`), never resumed beside it. A session of another machine
 * is reached through that machine's daemon (`forwarded`).
 */
export async function sendToSession(
  project: ProjectContext,
  scope: RoomScope,
  router: DeliveryRouter,
  input: { readonly session: string; readonly text: string },
): Promise<SendResult> {
  const view = resolveSession(project, router, input.session)
  if (view.delivery === 'remote' || view.machine !== loadMachineId(project.env.sangamHome))
    return forwardToMachine(project, scope, view, input.text)
  const message = project.db
    .transaction(() => {
      const posted = post(scope, {
        text: input.text,
        to: [`@${view.handle}`],
        kind: 'message',
        topic: null,
        threadId: null,
      })
      addDelivery(
        project.db,
        {
          messageId: posted.id,
          vendor: view.vendor,
          sessionId: view.id,
          state: 'pending',
          channel: null,
          reason: 'send',
          sender: posted.sender,
          senderKind: senderKindOf(posted),
          mode: 'send',
        },
        project.clock.now(),
      )
      return posted
    })
    .immediate()
  const outcome = await router.weighSession({ vendor: view.vendor, sessionId: view.id })
  const sent = sendResult(message.id, view, outcome)
  if (sent.outcome !== 'pending' || sent.reason !== 'cooldown') return sent
  const last = lastTurnAt(project.db, view.vendor, view.id)
  const cooldownMs = readOptionGroup(project.db, roomOptions).deliveryCooldown * 1000
  return { ...sent, retryAt: last === null ? null : new Date(last + cooldownMs).toISOString() }
}

/**
 * `send` to a session of another machine: the text is posted tagging it, and the daemon on its
 * machine delivers it as it delivers any tag (docs/room.md, "Delivery"), under the room's policy;
 * this machine starts nothing. The answer says which machine and what the policy means for it.
 */
function forwardToMachine(
  project: ProjectContext,
  scope: RoomScope,
  view: SessionView,
  text: string,
): SendResult {
  const posted = post(scope, { text, to: [`@${view.handle}`], kind: 'message', topic: null, threadId: null })
  const policy = readOptionGroup(project.db, roomOptions).wakeOnTag
  return {
    messageId: posted.id,
    session: { vendor: view.vendor, id: view.id },
    outcome: 'forwarded',
    channel: null,
    reason:
      policy === 'off'
        ? `posted tagging @${view.handle}; it lives on ${view.machineName}, and with room.wake-on-tag off it sees it at its next prompt there`
        : `posted tagging @${view.handle}; the daemon on ${view.machineName}, where it lives, delivers it`,
    retryAt: null,
    turn: null,
  }
}

function sendResult(messageId: string, view: SessionView, outcome: SessionOutcome): SendResult {
  const base = { messageId, session: { vendor: view.vendor, id: view.id }, retryAt: null }
  const refused = outcome.decision.refused.find((entry) => entry.messageId === messageId)
  if (refused !== undefined)
    return { ...base, outcome: 'refused', channel: null, reason: refused.reason, turn: null }
  const action = outcome.decision.action
  const turn = outcome.turn === null ? null : turnView(outcome.turn)
  switch (action.kind) {
    case 'start':
      if (outcome.turn === null)
        return { ...base, outcome: 'pending', channel: action.channel, reason: outcome.problem, turn: null }
      if (outcome.turn.state === 'failed')
        return { ...base, outcome: 'failed', channel: action.channel, reason: outcome.turn.detail, turn }
      return { ...base, outcome: 'started', channel: action.channel, reason: null, turn }
    case 'wait':
      return { ...base, outcome: 'pending', channel: action.channel, reason: action.reason, turn: null }
    case 'paste':
      return {
        ...base,
        outcome: outcome.problem === null ? 'pasted' : 'pending',
        channel: 'tmux-paste',
        reason: outcome.problem,
        turn: null,
      }
    case 'refuse':
      return { ...base, outcome: 'refused', channel: null, reason: action.reason, turn: null }
    case 'fail':
      return { ...base, outcome: 'failed', channel: null, reason: outcome.problem, turn: null }
    case 'none':
      return { ...base, outcome: 'refused', channel: null, reason: 'nothing to deliver', turn: null }
  }
}

/** A turn as the commands show it. */
export interface TurnView {
  readonly id: number
  readonly vendor: string
  readonly sessionId: string
  readonly channel: string
  readonly cause: string
  readonly why: string
  readonly messages: readonly string[]
  readonly state: string
  readonly pid: number | null
  readonly worktree: string | null
  readonly logFile: string | null
  readonly exitCode: number | null
  readonly detail: string | null
  readonly startedAt: string
  readonly endedAt: string | null
}

export function turnView(turn: TurnRow): TurnView {
  return {
    id: turn.id,
    vendor: turn.vendor,
    sessionId: turn.sessionId,
    channel: turn.channel,
    cause: turn.cause,
    why: turn.why,
    messages: turn.messages,
    state: turn.state,
    pid: turn.pid,
    worktree: turn.worktree,
    logFile: turn.logFile,
    exitCode: turn.exitCode,
    detail: turn.detail,
    startedAt: new Date(turn.startedAt).toISOString(),
    endedAt: turn.endedAt === null ? null : new Date(turn.endedAt).toISOString(),
  }
}

/**
 * `start --vendor claude|codex [--worktree PATH] TEXT`: a new headless session in a worktree of
 * this project (default: the one the command runs in), the text its first prompt.
 */
export async function startSession(
  project: ProjectContext,
  router: DeliveryRouter,
  input: {
    readonly vendor: string
    readonly worktree: string | null
    readonly cwd: string
    readonly text: string
    readonly sender: string
    readonly random: Random
  },
): Promise<{ turn: TurnView }> {
  if (!isDeliveryVendor(input.vendor))
    throw new SangamError(
      ErrorCode.InvalidInput,
      `unknown vendor "${input.vendor}"; use one of: claude, codex`,
    )
  const text = input.text.trim()
  if (text === '') throw new SangamError(ErrorCode.InvalidInput, 'start needs the first prompt as TEXT')
  // It reaches the agent's command line, its transcript and the turn's log: refused like a post.
  refuseSecret('the first prompt', text)
  const wanted = resolve(input.cwd, input.worktree ?? '.')
  const worktree = [...project.repo.worktrees]
    .sort((a, b) => b.length - a.length)
    .find((path) => wanted === path || wanted.startsWith(`${path}/`))
  if (worktree === undefined)
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${wanted} is not a worktree of this project (git worktree list shows them)`,
    )
  const prompt = `${text}\n\n(${input.sender} started this session through sangam. Answer in the room when useful: sangam post --to @${input.sender} …)`
  const started = await router.startNew({
    vendor: input.vendor,
    worktree,
    prompt,
    sessionId: input.random.uuid(),
  })
  if (started.turn === null || started.turn.state === 'failed')
    throw new SangamError(
      ErrorCode.VendorCliUnavailable,
      started.problem ?? started.turn?.detail ?? 'the session could not be started',
      started.turn === null ? undefined : { turn: turnView(started.turn) },
    )
  return { turn: turnView(started.turn) }
}

/**
 * `stop <session>`: ends the turn sangam started for it, from any process: the pid comes from the
 * ledger, and it is signalled only if it is still that process (its start time), its whole
 * process group with SIGTERM. A turn handed to the vendor (queue, background, wake) has no process
 * of ours: refused, naming the vendor's own way.
 */
export function stopSession(
  project: ProjectContext,
  router: DeliveryRouter,
  named: string,
): { turn: TurnView } {
  const view = liveTurnSession(project, named) ?? resolveSession(project, router, named)
  const turn = liveTurnOf(project.db, view.vendor, view.id)
  if (turn === null)
    throw new SangamError(
      ErrorCode.NotFound,
      `no turn sangam started runs for ${view.vendor} session ${view.id}: sangam deliveries lists the turns`,
    )
  const now = project.clock.now()
  if (turn.pid === null) {
    // Still `starting`: its owner has not recorded the process yet, or died before it could.
    throw new SangamError(
      ErrorCode.InvalidInput,
      `turn ${turn.id} of ${view.vendor} session ${view.id} is still starting; try again in a moment`,
    )
  }
  if (!isSameProcess(turn.pid, turn.pidStart)) {
    updateTurn(project.db, turn.id, ['running'], { state: 'ended', endedAt: now })
    throw new SangamError(
      ErrorCode.NotFound,
      `turn ${turn.id} of ${view.vendor} session ${view.id} had already ended (pid ${turn.pid} is gone)`,
    )
  }
  try {
    process.kill(-turn.pid, 'SIGTERM')
  } catch {
    process.kill(turn.pid, 'SIGTERM')
  }
  updateTurn(project.db, turn.id, ['running'], {
    state: 'stopped',
    endedAt: now,
    detail: `stopped by ${project.human}`,
  })
  const after = recentTurns(project.db, { limit: 1, vendor: view.vendor, sessionId: view.id })[0] ?? turn
  return { turn: turnView(after) }
}

/**
 * The session of a turn sangam started that still runs, named by its whole id or 8+ characters of
 * it: a session `start` began is known to the ledger before (or without) any hook of its own.
 */
function liveTurnSession(project: ProjectContext, named: string): { vendor: string; id: string } | null {
  const wanted = named.trim()
  const turns = liveTurns(project.db)
  const exact = turns.filter((turn) => turn.sessionId === wanted)
  const found =
    exact.length > 0
      ? exact
      : wanted.length >= 8
        ? turns.filter((turn) => turn.sessionId.startsWith(wanted))
        : []
  const [only] = found
  return found.length === 1 && only !== undefined ? { vendor: only.vendor, id: only.sessionId } : null
}

/** A ledger row as `deliveries` shows it. */
export interface DeliveryView {
  readonly messageId: string
  readonly vendor: string
  readonly sessionId: string
  readonly state: string
  readonly channel: string | null
  readonly reason: string | null
  readonly sender: string
  readonly senderKind: string
  readonly mode: string
  readonly turnId: number | null
  readonly createdAt: string
  readonly updatedAt: string
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    messageId: row.messageId,
    vendor: row.vendor,
    sessionId: row.sessionId,
    state: row.state,
    channel: row.channel,
    reason: row.reason,
    sender: row.sender,
    senderKind: row.senderKind,
    mode: row.mode,
    turnId: row.turnId,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  }
}

/** `deliveries`: the ledger's newest rows and the turns they started (the costs), newest first. */
export function listDeliveries(
  project: ProjectContext,
  router: DeliveryRouter,
  input: { readonly limit: number; readonly session: string | null },
): { deliveries: DeliveryView[]; turns: TurnView[] } {
  const session = input.session === null ? null : resolveSession(project, router, input.session)
  const filter = session === null ? {} : { vendor: session.vendor, sessionId: session.id }
  return {
    deliveries: recentDeliveries(project.db, { limit: input.limit, ...filter }).map(deliveryView),
    turns: recentTurns(project.db, { limit: input.limit, ...filter }).map(turnView),
  }
}
