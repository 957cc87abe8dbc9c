import { questionWaitingId, restingBackgroundId } from '../../agents/claude/services/claude-background.ts'
import type { ClaudeAgent } from '../../agents/claude/services/claude-live-sessions.ts'
import { processStart } from '../../agents/process-identity.ts'
import { deliveryOf, vendorFor, vendorNamed } from '../../agents/vendors.ts'
import type { WakeInPlace } from '../../agents/wake-in-place.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import { roomOptions } from '../../room/core/settings.ts'
import { readSessionPresence } from '../../room/store/presence-table.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Db } from '../../store/db.ts'
import {
  type DeliveryDecision,
  decideDelivery,
  type SessionFact,
  type VendorAbilities,
} from '../core/delivery-decision.ts'
import { maxArgvPromptChars } from '../core/delivery-prompt.ts'
import { type DeliveryVendor, isDeliveryVendor } from '../core/delivery-vocabulary.ts'
import { deliverySince, paneOf, pendingDeliveries } from '../store/delivery-ledger.ts'
import {
  agentTurnsSinceHuman,
  insertTurn,
  lastTurnAt,
  liveTurnOf,
  recentTurns,
  type TurnRow,
  turnById,
} from '../store/delivery-turn-table.ts'
import { scanMessages, sweepTurns } from './ledger-scan.ts'
import { pendingTagsOf, type SessionKey, tagsPrompt } from './session-tags.ts'
import { refuseTags, settleTags } from './tag-settlement.ts'
import { type SpawnContext, spawnTurn } from './turn-spawn.ts'
import { startTurn, type TurnStartContext } from './turn-start.ts'
import { abilitiesFor, findVendorCli, type VendorCli, type VendorCliPlaces } from './vendor-cli.ts'

/** A tag older than this when first weighed is not delivered as a turn (the machine was away). */
export const staleTagMs = 24 * 60 * 60_000

/** How long a vendor CLI's lookup and `--help` are trusted before they are read again. */
const cliLookupMs = 60_000

export interface DeliveryRouterOptions {
  readonly db: Db
  /** The project's data directory (turn logs go under it). */
  readonly projectDir: string
  /** This machine's id: only its sessions are delivered here. */
  readonly machine: string
  /** This machine's worktrees of the project. */
  readonly worktrees: readonly string[]
  /** A worktree to run a turn in when the session's is unknown or gone. */
  readonly fallbackCwd: string
  readonly clock: Clock
  readonly log: Logger
  /** The process delivering (the daemon, a CLI, an MCP server): recorded as each turn's owner. */
  readonly pid: number
  readonly places: VendorCliPlaces
  /** The environment vendor CLIs run with (the user's own). */
  readonly vendorEnv: Readonly<Record<string, string>>
  /** The Codex wake-in-place channel; absent → never used (resume instead). */
  readonly wake?: WakeInPlace | undefined
  /** The Claude Code wake-in-place channel (its wake waiter, D370); absent → never used. */
  readonly claudeWake?: WakeInPlace | undefined
  /** Claude Code's own list of its open sessions (`claude agents --json`), or null when it cannot say. */
  readonly claudeAgents?: (() => readonly ClaudeAgent[] | null) | undefined
  /** How long to wait for a just-started CLI to fail at once (a CLI process that exits right after). */
  readonly earlyExitMs?: number | undefined
}

/** What became of one session's tags in one look. */
export interface SessionOutcome {
  readonly vendor: string
  readonly sessionId: string
  readonly decision: DeliveryDecision
  /** The turn started, when one was. */
  readonly turn: TurnRow | null
  /** Why a chosen start did not happen (another process started one first, the CLI failed). */
  readonly problem: string | null
}

/**
 * Carries tags to the sessions of this machine. The daemon calls `look()` whenever the room may
 * have changed (a post here, records applied from the team, a timer); `send` and MCP `room_send`
 * call `weighSession` for their one session. Every guard that must hold across processes is the
 * ledger's (delivery/store/): rows move only inside IMMEDIATE transactions that re-read them, and
 * at most one turn per session is `starting | running` (a unique index). A turn is recorded
 * `starting` before its process is spawned, so a process killed in between leaves `starting`,
 * which the next sweep turns into `unknown`: never a second turn for the same tags.
 */
export class DeliveryRouter {
  readonly #options: DeliveryRouterOptions
  readonly #clis = new Map<DeliveryVendor, { cli: VendorCli; at: number }>()
  /** Children this process started, so it records their exit (the sweep covers the others). */
  readonly #children = new Set<Promise<void>>()

  /** When this store got its delivery ledger: tags posted before are the room's history (D273). */
  readonly #since: number

  constructor(options: DeliveryRouterOptions) {
    this.#options = options
    this.#since = deliverySince(options.db)
  }

  /** One look: sweep ended turns, take new messages into the ledger, weigh every pending session. */
  async look(): Promise<SessionOutcome[]> {
    this.sweep()
    this.scan()
    const bySession = new Map<string, SessionKey>()
    for (const row of pendingDeliveries(this.#options.db)) {
      if (!isDeliveryVendor(row.vendor)) continue
      bySession.set(`${row.vendor}:${row.sessionId}`, { vendor: row.vendor, sessionId: row.sessionId })
    }
    const outcomes: SessionOutcome[] = []
    for (const session of bySession.values()) outcomes.push(await this.weighSession(session))
    return outcomes
  }

  /** Waits for the exits of the turns this process started and still watches (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.#children])
  }

  /** Turns whose process is gone (ledger-scan.ts). */
  sweep(): void {
    sweepTurns(this.#options.db, this.#options.clock, this.#options.pid)
  }

  /** Takes the messages that reached the replica since the last look into the ledger (ledger-scan.ts). */
  scan(): void {
    const { db, clock, machine, worktrees } = this.#options
    scanMessages(db, clock, { machine, worktrees, since: this.#since })
  }

  /**
   * Weighs one session's pending tags in named steps: what is known of the session, the decision
   * (the guards, then the channel), the refused tags settled, then the carried ones settled or
   * their turn started.
   */
  async weighSession(session: SessionKey): Promise<SessionOutcome> {
    const { db, clock } = this.#options
    const now = clock.now()
    const { rows, tags, messages, wakeFailed } = pendingTagsOf(db, session, now)
    if (tags.length === 0) return { ...session, decision: nothingToDo, turn: null, problem: null }
    const mode = rows.some((row) => row.mode === 'send') ? 'send' : 'tag'
    const prompt = tagsPrompt(tags, messages, mode)
    const known = this.#sessionFact(session, wakeFailed)
    // Waking in place needs no vendor CLI, and finding one runs its `--help` (half a second to
    // more than one under load): a wakeable session is weighed without it.
    const cli = known.live ? null : this.vendorCli(session.vendor)
    const settings = readOptionGroup(db, roomOptions)
    const decision = decideDelivery(
      {
        session: known.fact,
        tags,
        abilities: abilitiesFor(session.vendor, cli, this.#options.vendorEnv),
        policy: {
          wakeOnTag: settings.wakeOnTag,
          cooldownMs: settings.deliveryCooldown * 1000,
          loopBudget: settings.deliveryLoopBudget,
          staleMs: staleTagMs,
        },
        mode,
        promptFitsArgv: prompt.length <= maxArgvPromptChars,
      },
      now,
    )
    refuseTags(db, session, decision.refused, known.remote, now)
    const carriedRows = rows.filter((row) => decision.carried.includes(row.messageId))
    const action = decision.action
    if (action.kind !== 'start') {
      const problem = settleTags(db, carriedRows, action, {
        vendor: session.vendor,
        prompt,
        env: this.#options.vendorEnv,
        now,
      })
      return { ...session, decision, turn: null, problem }
    }
    const [turn, problem] = await startTurn(
      this.#turnContext(),
      session,
      carriedRows,
      action.channel,
      decision,
      prompt,
      known.worktree,
      cli,
      known.resting,
    )
    return { ...session, decision, turn, problem }
  }

  /**
   * What delivery knows of a session: its presence here (none when it lives on another machine),
   * its turns, whether it can be woken in place, whether its vendor lists it as open elsewhere or
   * waiting at a question, its tmux pane.
   */
  #sessionFact(session: SessionKey, wakeFailed: boolean): KnownSession {
    const { db } = this.#options
    const presence = readSessionPresence(db, session.vendor, session.sessionId)
    const remote = presence !== null && presence.machine !== this.#options.machine
    // At rest with a waiter or app-server listening: Claude Code's own list (`claude agents`, a
    // second or more to spawn) is not asked, since a session whose Stop ran waits at no question.
    const live =
      !wakeFailed &&
      !remote &&
      presence?.state === 'idle' &&
      this.#wakeFor(session.vendor)?.endpointOf(session.sessionId) != null
    const vendor = vendorFor(session.vendor)
    const resting =
      presence?.state === 'idle' && vendor.delivery?.listsLiveSessions === true && !remote && !live
        ? this.#restingBackground(session.sessionId)
        : null
    const fact: SessionFact = {
      vendor: session.vendor,
      sessionId: session.sessionId,
      presence: presence === null || remote ? null : presence.state,
      turnRunning: liveTurnOf(db, session.vendor, session.sessionId) !== null,
      lastTurnAt: lastTurnAt(db, session.vendor, session.sessionId),
      agentTurns: agentTurnsSinceHuman(db, session.vendor, session.sessionId),
      wakeable: live,
      openElsewhere:
        presence?.state === 'idle' && vendor.delivery?.listsLiveSessions === true && !live
          ? resting === null && this.#openInClaude(session.sessionId)
          : null,
      tmuxPane: paneOf(db, session.vendor, session.sessionId),
      // Asked of sessions that have not ended (one that ended waits at nothing), so a dormant
      // session's resume spawns no `claude agents`.
      atQuestion:
        vendor.delivery?.listsLiveSessions === true &&
        !remote &&
        !live &&
        presence !== null &&
        presence.state !== 'offline' &&
        this.atQuestion(session.sessionId) !== null,
    }
    return { fact, remote, live, resting, worktree: presence?.worktree ?? null }
  }

  /**
   * Starts a new headless session (`start`): no tag, no ledger row; a turn of channel `new`,
   * caused by a human. Claude Code takes the id sangam picks; Codex's is read from its output.
   */
  async startNew(input: {
    readonly vendor: DeliveryVendor
    readonly worktree: string
    readonly prompt: string
    readonly sessionId: string
  }): Promise<{ turn: TurnRow | null; problem: string | null }> {
    const { db, clock } = this.#options
    const cli = this.vendorCli(input.vendor)
    if (cli.path === null)
      return { turn: null, problem: `the ${input.vendor} CLI was not found on PATH or in the usual places` }
    // A session its CLI names gets a placeholder id until the launch's output names it.
    const sessionId =
      deliveryOf(input.vendor).newSessionIdIn === null ? input.sessionId : `new:${input.sessionId}`
    const id = insertTurn(
      db,
      {
        vendor: input.vendor,
        sessionId,
        channel: 'new',
        cause: 'human',
        why: 'start',
        messages: [],
        state: 'starting',
        ownerPid: this.#options.pid,
        ownerStart: processStart(this.#options.pid),
        worktree: input.worktree,
      },
      clock.now(),
    )
    const turn = id === null ? null : turnById(db, id)
    if (turn === null) return { turn: null, problem: 'a turn is already starting for that session' }
    const [after, problem] = await spawnTurn(
      this.#spawnContext(),
      turn,
      cli,
      'new',
      input.prompt,
      input.worktree,
    )
    return { turn: after, problem }
  }

  /** The vendor CLI of this machine, looked up again at most once a minute. */
  vendorCli(vendor: DeliveryVendor): VendorCli {
    const known = this.#clis.get(vendor)
    const now = this.#options.clock.now()
    if (known !== undefined && now - known.at < cliLookupMs) return known.cli
    const cli = findVendorCli(vendor, this.#options.places)
    this.#clis.set(vendor, { cli, at: now })
    return cli
  }

  /** The session has a live endpoint to wake it in place. */
  wakeable(vendor: DeliveryVendor, sessionId: string): boolean {
    return this.#wakeFor(vendor)?.endpointOf(sessionId) != null
  }

  /** Why the session cannot be woken in place, when its vendor's channel can tell; else null. */
  wakeUnavailable(vendor: DeliveryVendor, sessionId: string): string | null {
    return this.#wakeFor(vendor)?.unavailable?.(sessionId) ?? null
  }

  /** Each vendor's own wake in place; Gemini CLI and opencode have none (a tag never reaches Codex's channel). */
  #wakeFor(vendor: DeliveryVendor): WakeInPlace | undefined {
    const wakes: Readonly<Record<DeliveryVendor, WakeInPlace | undefined>> = {
      claude: this.#options.claudeWake,
      codex: this.#options.wake,
      gemini: undefined,
      opencode: undefined,
    }
    return wakes[vendor]
  }

  /** Whether Claude Code lists the session as open (true / false), or null when it cannot say or it is not Claude's. */
  openInClaude(session: { readonly vendor: string; readonly id: string }): boolean | null {
    if (vendorNamed(session.vendor)?.delivery?.listsLiveSessions !== true) return null
    // A background session sangam continued, at rest: nobody's terminal (D177).
    return this.#restingBackground(session.id) === null && this.#openInClaude(session.id)
  }

  /** The id to attach to when Claude Code lists the session as waiting at a question (D254), else null. */
  atQuestion(sessionId: string): string | null {
    return questionWaitingId(this.#options.claudeAgents?.() ?? null, sessionId)
  }

  #openInClaude(sessionId: string): boolean | null {
    const agents = this.#options.claudeAgents?.() ?? null
    return agents === null ? null : agents.some((agent) => agent.sessionId === sessionId)
  }

  /**
   * The short id of a background session sangam itself continued (its last turn went through
   * `background`) that Claude Code lists at rest: nobody's terminal, so it is stopped and
   * continued again rather than waited on (D177). Null otherwise.
   */
  #restingBackground(sessionId: string): string | null {
    const { db } = this.#options
    const shortId = restingBackgroundId(this.#options.claudeAgents?.() ?? null, sessionId)
    if (shortId === null) return null
    const last = recentTurns(db, { limit: 20, vendor: 'claude', sessionId }).find(
      (turn) => turn.channel !== 'hand-over' && turn.state !== 'failed',
    )
    return last?.channel === 'background' ? shortId : null
  }

  #spawnContext(): SpawnContext {
    return { ...this.#options, children: this.#children }
  }

  #turnContext(): TurnStartContext {
    return {
      ...this.#spawnContext(),
      pid: this.#options.pid,
      vendorCli: (vendor) => this.vendorCli(vendor),
      wakeFor: (vendor) => this.#wakeFor(vendor),
      cwdFor: (worktree) => this.#cwdFor(worktree),
    }
  }

  #cwdFor(worktree: string | null): string {
    if (worktree !== null && this.#options.worktrees.includes(worktree)) return worktree
    return this.#options.fallbackCwd
  }
}

export type { VendorAbilities }

/** What `weighSession` learnt of a session before deciding. */
interface KnownSession {
  readonly fact: SessionFact
  /** Its presence is another machine's: its tags are refused here as remote. */
  readonly remote: boolean
  /** It can be woken in place now. */
  readonly live: boolean
  /** A resting background session to stop before a turn starts (`claude stop <id>`). */
  readonly resting: string | null
  readonly worktree: string | null
}

/** The decision of a session with no tag pending. */
const nothingToDo: DeliveryDecision = {
  refused: [],
  carried: [],
  humanCause: false,
  action: { kind: 'none' },
}
