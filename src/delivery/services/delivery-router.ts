import { readFileSync } from 'node:fs'
import { deliveryLogFile } from '../../config/data-paths.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import type { DirectoryAgent } from '../../room/core/directory.ts'
import { roomOptions } from '../../room/core/settings.ts'
import type { RoomThread } from '../../room/protocol/thread.ts'
import type { ClaudeAgent } from '../../room/services/claude-live-sessions.ts'
import { loadDirectory } from '../../room/services/directory.ts'
import { readContextCursor } from '../../room/store/context-cursor-table.ts'
import { messageById, messagesArrivedAfter, type StoredMessage } from '../../room/store/message-table.ts'
import { readSessionPresence } from '../../room/store/presence-table.ts'
import { threadById } from '../../room/store/thread-table.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Db } from '../../store/db.ts'
import {
  type DeliveryDecision,
  decideDelivery,
  type SessionFact,
  type TagFact,
  type VendorAbilities,
} from '../core/delivery-decision.ts'
import { deliveryPrompt, maxArgvPromptChars } from '../core/delivery-prompt.ts'
import { type DeliveryVendor, isDeliveryVendor } from '../core/delivery-vocabulary.ts'
import {
  addDelivery,
  type DeliveryRow,
  deliveryOf,
  deliverySince,
  moveDelivery,
  paneOf,
  pendingDeliveries,
  readScanCursor,
  writeScanCursor,
} from '../store/delivery-ledger.ts'
import {
  agentTurnsSinceHuman,
  insertTurn,
  lastTurnAt,
  liveTurnOf,
  liveTurns,
  recentTurns,
  type TurnRow,
  turnById,
  updateTurn,
} from '../store/delivery-turn-table.ts'
import { questionWaitingId, restingBackgroundId, stopClaudeBackground } from './claude-background.ts'
import { codexDaemonListens } from './codex-daemon.ts'
import { isSameProcess, processStart } from './process-identity.ts'
import { senderKindOf } from './sender-kind.ts'
import { pasteIntoPane } from './tmux-paste.ts'
import { launchTurn } from './turn-launcher.ts'
import { findVendorCli, type VendorCli, type VendorCliPlaces } from './vendor-cli.ts'
import { codexThreadIdIn, type SpawnChannel, vendorCommand } from './vendor-command.ts'
import type { WakeInPlace } from './wake-in-place.ts'

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

/** A session delivery may start a turn in. */
export interface SessionKey {
  readonly vendor: DeliveryVendor
  readonly sessionId: string
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

  /**
   * Turns whose process is gone: `starting` ones whose owner died before it could record the
   * spawn become `unknown` (and so do their tags: never retried), `running` ones whose vendor
   * process ended become `ended` (exit unknown when their owner was not there to see it).
   */
  sweep(): void {
    const { db, clock } = this.#options
    for (const turn of liveTurns(db)) {
      if (turn.state === 'starting') {
        if (turn.ownerPid === this.#options.pid || isSameProcess(turn.ownerPid, turn.ownerStart)) continue
        db.transaction(() => {
          if (
            !updateTurn(db, turn.id, ['starting'], {
              state: 'unknown',
              endedAt: clock.now(),
              detail: 'the process starting it ended before it recorded the start',
            })
          )
            return
          for (const messageId of turn.messages) {
            moveDelivery(
              db,
              { messageId, vendor: turn.vendor, sessionId: turn.sessionId },
              ['starting'],
              {
                state: 'unknown',
                reason: 'the process starting its turn ended before it recorded the start',
              },
              clock.now(),
            )
          }
        }).immediate()
        continue
      }
      if (turn.pid === null || isSameProcess(turn.pid, turn.pidStart)) continue
      updateTurn(db, turn.id, ['running'], { state: 'ended', endedAt: clock.now() })
    }
  }

  /**
   * Takes the messages that reached the replica since the last look into the ledger: one pending
   * row per session of this machine each one tags. Every message is weighed once, whichever
   * process looks first and however late, except the room's history: a message posted before
   * this store had its ledger (pulled from the team, or left from before delivery existed) is
   * never delivered (D273, which supersedes D173).
   */
  scan(): void {
    const { db, clock } = this.#options
    let after = readScanCursor(db) ?? 0
    for (;;) {
      const messages = messagesArrivedAfter(db, after, 500)
      if (messages.length === 0) return
      const directory = loadDirectory(db, {
        machine: this.#options.machine,
        worktrees: this.#options.worktrees,
      })
      db.transaction(() => {
        for (const message of messages) {
          if (message.at < this.#since) continue
          const thread = message.threadId === null ? null : threadById(db, message.threadId)
          for (const target of tagTargets(message, directory, this.#options.machine, thread)) {
            addDelivery(
              db,
              {
                messageId: message.id,
                vendor: target.vendor,
                sessionId: target.sessionId,
                state: 'pending',
                channel: null,
                reason: null,
                sender: message.sender,
                senderKind: senderKindOf(message),
                mode: target.by,
              },
              clock.now(),
            )
          }
        }
        after = (messages[messages.length - 1] as StoredMessage).seq
        writeScanCursor(db, after)
      }).immediate()
    }
  }

  /** Weighs one session's pending tags: the guards, the channel, and the turn when one starts. */
  async weighSession(session: SessionKey): Promise<SessionOutcome> {
    const { db, clock } = this.#options
    const now = clock.now()
    const all = pendingDeliveries(db).filter(
      (row) => row.vendor === session.vendor && row.sessionId === session.sessionId,
    )
    // A send is weighed on its own: its refusal (a session open in a terminal) must not take the
    // tags waiting for that session's next prompt with it; they are weighed at the next look.
    const sends = all.filter((row) => row.mode === 'send')
    const rows = sends.length > 0 ? sends : all
    const presence = readSessionPresence(db, session.vendor, session.sessionId)
    const cursor = readContextCursor(db, session.vendor, session.sessionId)
    const tags: TagFact[] = []
    const messages = new Map<string, StoredMessage>()
    let wakeFailed = false
    for (const row of rows) {
      const message = messageById(db, row.messageId)
      if (message === null) continue
      // Shown at a prompt, a session start or a hand-over since: the room's context carried it.
      if (cursor !== null && cursor.seenSeq >= message.seq) {
        moveDelivery(
          db,
          row,
          ['pending'],
          { state: 'delivered', channel: 'next-prompt', reason: 'shown in the session’s context' },
          now,
        )
        continue
      }
      if (row.reason?.startsWith('wake failed') === true) wakeFailed = true
      messages.set(message.id, message)
      tags.push({
        messageId: message.id,
        senderKind: row.senderKind,
        fromSession: message.session,
        at: message.at,
        by: row.mode === 'send' ? 'direct' : row.mode,
      })
    }
    const empty: SessionOutcome = {
      ...session,
      decision: { refused: [], carried: [], humanCause: false, action: { kind: 'none' } },
      turn: null,
      problem: null,
    }
    if (tags.length === 0) return empty
    const settings = readOptionGroup(db, roomOptions)
    const mode = rows.some((row) => row.mode === 'send') ? 'send' : 'tag'
    const prompt = deliveryPrompt(
      tags.map((tag) => {
        const message = messages.get(tag.messageId) as StoredMessage
        // Answered by its `@handle` when a session posted it; else the thread, or `@human`.
        return { ...message, fromAgent: message.session !== null }
      }),
      mode,
    )
    const remote = presence !== null && presence.machine !== this.#options.machine
    // At rest with a waiter or app-server listening: Claude Code's own list (`claude agents`, a
    // second or more to spawn) is not asked, since a session whose Stop ran waits at no question.
    const live =
      !wakeFailed &&
      !remote &&
      presence?.state === 'idle' &&
      this.#wakeFor(session.vendor)?.endpointOf(session.sessionId) != null
    const resting =
      presence?.state === 'idle' && session.vendor === 'claude' && !remote && !live
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
        presence?.state === 'idle' && session.vendor === 'claude' && !live
          ? resting === null && this.#openInClaude(session.sessionId)
          : null,
      tmuxPane: paneOf(db, session.vendor, session.sessionId),
      // Asked of sessions that have not ended (one that ended waits at nothing), so a dormant
      // session's resume spawns no `claude agents`.
      atQuestion:
        session.vendor === 'claude' &&
        !remote &&
        !live &&
        presence !== null &&
        presence.state !== 'offline' &&
        this.atQuestion(session.sessionId) !== null,
    }
    // Waking in place needs no vendor CLI, and finding one runs its `--help` (half a second to
    // more than one under load): a wakeable session is weighed without it.
    const cli = live ? null : this.vendorCli(session.vendor)
    const decision = decideDelivery(
      {
        session: fact,
        tags,
        // `codex queue --resume` runs a turn only on Codex's own daemon (codex-daemon.ts): without
        // it the message is only queued, so the session is resumed instead.
        abilities:
          cli === null
            ? null
            : session.vendor === 'codex' &&
                cli.abilities.queue &&
                !codexDaemonListens(this.#options.vendorEnv)
              ? { ...cli.abilities, queue: false }
              : cli.abilities,
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
    const key = (messageId: string) => ({ messageId, ...session })
    for (const refusal of decision.refused) {
      moveDelivery(
        db,
        key(refusal.messageId),
        ['pending'],
        {
          state: 'refused',
          reason:
            remote && refusal.reason === 'unknown-session'
              ? 'the session lives on another machine'
              : refusal.reason,
        },
        now,
      )
    }
    const carriedRows = rows.filter((row) => decision.carried.includes(row.messageId))
    const outcome = (turn: TurnRow | null, problem: string | null): SessionOutcome => ({
      ...session,
      decision,
      turn,
      problem,
    })
    const action = decision.action
    switch (action.kind) {
      case 'none':
        return outcome(null, null)
      case 'wait': {
        for (const row of carriedRows) {
          if (row.reason !== action.reason || row.channel !== action.channel)
            moveDelivery(
              db,
              row,
              ['pending'],
              { state: 'pending', channel: action.channel, reason: action.reason },
              now,
            )
        }
        return outcome(null, null)
      }
      case 'refuse':
        for (const row of carriedRows)
          moveDelivery(db, row, ['pending'], { state: 'refused', reason: action.reason }, now)
        return outcome(null, action.reason)
      case 'fail': {
        const why = `the ${session.vendor} CLI was not found on PATH or in the usual places (~/.local/bin, /usr/local/bin, /opt/homebrew/bin, npm's global bin)`
        for (const row of carriedRows)
          moveDelivery(db, row, ['pending'], { state: 'failed', reason: why }, now)
        return outcome(null, why)
      }
      case 'paste': {
        const problem = pasteIntoPane(action.pane, prompt, this.#options.vendorEnv)
        for (const row of carriedRows)
          moveDelivery(
            db,
            row,
            ['pending'],
            problem === null
              ? {
                  state: 'delivered',
                  channel: 'tmux-paste',
                  reason: `pasted into tmux pane ${action.pane}, Enter not pressed`,
                }
              : { state: 'pending', channel: 'next-prompt', reason: problem },
            now,
          )
        return outcome(null, problem)
      }
      case 'start':
        return this.#start(
          session,
          carriedRows,
          action.channel,
          decision,
          prompt,
          presence?.worktree ?? null,
          cli,
          resting,
        )
    }
  }

  /** Records `starting`, then starts the turn through its channel, then records what happened. */
  async #start(
    session: SessionKey,
    rows: readonly DeliveryRow[],
    channel: 'wake' | 'queue' | 'background' | 'resume',
    decision: DeliveryDecision,
    prompt: string,
    worktree: string | null,
    /** The vendor CLI, or null when it was not looked up (a session that wakes in place). */
    known: VendorCli | null,
    /** A resting background session to stop before the turn starts (`claude stop <id>`). */
    stopFirst: string | null = null,
  ): Promise<SessionOutcome> {
    const { db, clock } = this.#options
    const outcome = (turn: TurnRow | null, problem: string | null): SessionOutcome => ({
      ...session,
      decision,
      turn,
      problem,
    })
    const claimed = claimTurn(db, {
      ...session,
      channel,
      cause: decision.humanCause ? 'human' : 'agent',
      why: rows.some((row) => row.mode === 'send') ? 'send' : 'tag',
      messageIds: rows.map((row) => row.messageId),
      ownerPid: this.#options.pid,
      ownerStart: processStart(this.#options.pid),
      worktree,
      cooldownMs: readOptionGroup(db, roomOptions).deliveryCooldown * 1000,
      now: clock.now(),
    })
    if (claimed.turn === null) return outcome(null, claimed.problem)
    const turn = claimed.turn
    if (channel === 'wake') return outcome(...(await this.#wake(turn, prompt)))
    const cli = known ?? this.vendorCli(session.vendor)
    const cwd = this.#cwdFor(worktree)
    if (stopFirst !== null && cli.path !== null) {
      const stopped = stopClaudeBackground(cli.path, stopFirst, this.#options.vendorEnv, cwd)
      if (stopped !== null) return outcome(this.#fail(turn, stopped), stopped)
    }
    const [after, problem] = await this.#spawn(turn, cli, channel, prompt, cwd)
    if (channel === 'background' && after !== null && after.state === 'failed' && after.pid !== null) {
      // `claude --bg` refused at once (2.1.332 says "Workspace not trusted" for a repository never
      // opened in its TUI, D176): the same tags, in the same look, through `--print --resume`.
      const retry = this.#resumeInstead(after)
      if (retry !== null) return outcome(...(await this.#spawn(retry, cli, 'resume', prompt, cwd)))
    }
    return outcome(after, problem)
  }

  /**
   * A new `resume` turn for the tags a refused background turn failed with, in one IMMEDIATE
   * transaction (another process may have taken them meanwhile: then null). Not a second claim:
   * the cooldown is the refused turn's, which never ran.
   */
  #resumeInstead(refused: TurnRow): TurnRow | null {
    const { db, clock } = this.#options
    return db
      .transaction(() => {
        const still = refused.messages.filter((messageId) => {
          const row = deliveryOf(db, messageId, refused.vendor, refused.sessionId)
          return row?.state === 'failed' && row.turnId === refused.id
        })
        if (still.length === 0) return null
        const now = clock.now()
        const id = insertTurn(
          db,
          {
            vendor: refused.vendor,
            sessionId: refused.sessionId,
            channel: 'resume',
            cause: refused.cause,
            why: refused.why,
            messages: still,
            state: 'starting',
            ownerPid: this.#options.pid,
            ownerStart: processStart(this.#options.pid),
            worktree: refused.worktree,
          },
          now,
        )
        if (id === null) return null
        updateTurn(db, id, ['starting'], {
          state: 'starting',
          detail: `instead of turn ${refused.id}: ${refused.detail ?? 'claude --bg failed'}`,
        })
        for (const messageId of still)
          moveDelivery(
            db,
            { messageId, vendor: refused.vendor, sessionId: refused.sessionId },
            ['failed'],
            { state: 'starting', channel: 'resume', reason: null, turnId: id },
            now,
          )
        return turnById(db, id)
      })
      .immediate()
  }

  async #wake(turn: TurnRow, prompt: string): Promise<[TurnRow | null, string | null]> {
    const { db, clock } = this.#options
    const wake = this.#wakeFor(turn.vendor as DeliveryVendor)
    const endpoint = wake?.endpointOf(turn.sessionId) ?? null
    try {
      if (wake === undefined || endpoint === null)
        throw new Error('the session has no live endpoint any more')
      await wake.wake(endpoint, turn.sessionId, prompt)
    } catch (error) {
      const why = `wake failed: ${messageOf(error)}`
      // Back to pending, marked: the next look takes another channel (resume) for them.
      db.transaction(() => {
        updateTurn(db, turn.id, ['starting'], { state: 'failed', detail: why, endedAt: clock.now() })
        for (const messageId of turn.messages)
          moveDelivery(
            db,
            { messageId, vendor: turn.vendor, sessionId: turn.sessionId },
            ['starting'],
            { state: 'pending', reason: why, turnId: null },
            clock.now(),
          )
      }).immediate()
      return [turnById(db, turn.id), why]
    }
    // The turn runs inside the live session; its own hooks show it running, then at rest.
    this.#recordStarted(turn, 'ended', {
      endedAt: clock.now(),
      detail: `turn started in place at ${endpoint}`,
    })
    return [turnById(db, turn.id), null]
  }

  async #spawn(
    turn: TurnRow,
    cli: VendorCli,
    channel: SpawnChannel,
    prompt: string,
    cwd: string,
  ): Promise<[TurnRow | null, string | null]> {
    const { db, clock } = this.#options
    const logFile = deliveryLogFile(this.#options.projectDir, turn.id)
    if (cli.path === null)
      return [this.#fail(turn, 'the vendor CLI is not installed'), 'the vendor CLI is not installed']
    let launched: Awaited<ReturnType<typeof launchTurn>>
    try {
      launched = await launchTurn({
        executable: cli.path,
        command: vendorCommand(turn.vendor as DeliveryVendor, channel, turn.sessionId, prompt),
        cwd,
        env: { ...this.#options.vendorEnv, SANGAM_DELIVERY_TURN: String(turn.id) },
        logFile,
      })
    } catch (error) {
      const why = `${cli.path} could not be started: ${messageOf(error)}`
      return [this.#fail(turn, why), why]
    }
    // Queue and background hand the turn to the vendor's own daemon: their command ends at once.
    const handsOff = channel === 'queue' || channel === 'background'
    this.#recordStarted(turn, 'running', { pid: launched.pid, pidStart: processStart(launched.pid), logFile })
    const watched = launched.exited
      .then(({ code, signal }) => {
        const ended = clock.now()
        const current = turnById(db, turn.id)
        if (current === null || current.state !== 'running') return
        if (code === 0) {
          updateTurn(db, turn.id, ['running'], {
            state: 'ended',
            exitCode: code,
            endedAt: ended,
            detail: handsOff ? `handed to the ${turn.vendor} CLI's own ${channel}` : current.detail,
          })
          return
        }
        const why =
          signal !== null
            ? `the ${turn.vendor} CLI was ended by ${signal}`
            : `the ${turn.vendor} CLI exited with ${code}${saidIn(logFile)}; see ${logFile}`
        db.transaction(() => {
          updateTurn(db, turn.id, ['running'], {
            state: 'failed',
            exitCode: code,
            endedAt: ended,
            detail: why,
          })
          for (const messageId of turn.messages)
            moveDelivery(
              db,
              { messageId, vendor: turn.vendor, sessionId: turn.sessionId },
              ['delivered'],
              { state: 'failed', reason: why },
              ended,
            )
        }).immediate()
      })
      .catch((error: unknown) =>
        this.#options.log.warn('cannot record the end of a turn', { turn: turn.id, error: messageOf(error) }),
      )
    this.#children.add(watched)
    void watched.finally(() => this.#children.delete(watched))
    const early = this.#options.earlyExitMs ?? 0
    if (early > 0 || handsOff) {
      // A timer that holds the process open (the child no longer does): a CLI waits this long for
      // a CLI that fails at once, then leaves the turn running.
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        watched,
        new Promise((done) => {
          timer = setTimeout(done, handsOff ? Math.max(early, 10_000) : early)
        }),
      ])
      clearTimeout(timer)
    }
    if (turn.vendor === 'codex' && turn.sessionId.startsWith('new:'))
      await this.#learnCodexThread(turn.id, logFile)
    const after = turnById(db, turn.id)
    return [after, after?.state === 'failed' ? after.detail : null]
  }

  #recordStarted(
    turn: TurnRow,
    state: 'running' | 'ended',
    change: { pid?: number; pidStart?: string | null; logFile?: string; endedAt?: number; detail?: string },
  ): void {
    const { db, clock } = this.#options
    db.transaction(() => {
      updateTurn(db, turn.id, ['starting'], { state, ...change })
      for (const messageId of turn.messages)
        moveDelivery(
          db,
          { messageId, vendor: turn.vendor, sessionId: turn.sessionId },
          ['starting'],
          { state: 'delivered', channel: turn.channel, reason: null },
          clock.now(),
        )
    }).immediate()
  }

  #fail(turn: TurnRow, why: string): TurnRow | null {
    const { db, clock } = this.#options
    db.transaction(() => {
      updateTurn(db, turn.id, ['starting'], { state: 'failed', detail: why, endedAt: clock.now() })
      for (const messageId of turn.messages)
        moveDelivery(
          db,
          { messageId, vendor: turn.vendor, sessionId: turn.sessionId },
          ['starting'],
          { state: 'failed', reason: why },
          clock.now(),
        )
    }).immediate()
    return turnById(db, turn.id)
  }

  /** A new Codex session's id is in its first `exec --json` event; the turn takes it when it appears. */
  async #learnCodexThread(turnId: number, logFile: string): Promise<void> {
    const { readFile } = await import('node:fs/promises')
    for (let waited = 0; waited < 10_000; waited += 100) {
      const text = await readFile(logFile, 'utf8').catch(() => '')
      const id = codexThreadIdIn(text)
      if (id !== null) {
        const turn = turnById(this.#options.db, turnId)
        if (turn !== null)
          updateTurn(this.#options.db, turnId, [turn.state], { state: turn.state, sessionId: id })
        return
      }
      const turn = turnById(this.#options.db, turnId)
      if (turn === null || turn.state !== 'running') return
      await new Promise((done) => setTimeout(done, 100))
    }
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
    const sessionId = input.vendor === 'claude' ? input.sessionId : `new:${input.sessionId}`
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
    const [after, problem] = await this.#spawn(turn, cli, 'new', input.prompt, input.worktree)
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

  #wakeFor(vendor: DeliveryVendor): WakeInPlace | undefined {
    return vendor === 'claude' ? this.#options.claudeWake : this.#options.wake
  }

  /** Whether Claude Code lists the session as open (true / false), or null when it cannot say or it is not Claude's. */
  openInClaude(session: { readonly vendor: string; readonly id: string }): boolean | null {
    if (session.vendor !== 'claude') return null
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

  #cwdFor(worktree: string | null): string {
    if (worktree !== null && this.#options.worktrees.includes(worktree)) return worktree
    return this.#options.fallbackCwd
  }
}

/**
 * Claims a turn for a session in one IMMEDIATE transaction: none `starting | running` for it (the
 * unique index decides between racing processes), the cooldown passed, and each tag still pending
 * (another process may have carried it); the tags move to `starting` with the turn's id.
 */
export function claimTurn(
  db: Db,
  input: {
    readonly vendor: string
    readonly sessionId: string
    readonly channel: TurnRow['channel']
    readonly cause: 'human' | 'agent'
    readonly why: TurnRow['why']
    readonly messageIds: readonly string[]
    readonly ownerPid: number
    readonly ownerStart: string | null
    readonly worktree: string | null
    readonly cooldownMs: number
    readonly now: number
  },
): { turn: TurnRow | null; problem: string | null } {
  return db
    .transaction(() => {
      if (liveTurnOf(db, input.vendor, input.sessionId) !== null)
        return { turn: null, problem: 'turn-running' }
      const last = lastTurnAt(db, input.vendor, input.sessionId)
      if (last !== null && input.now - last < input.cooldownMs) return { turn: null, problem: 'cooldown' }
      const still = input.messageIds.filter(
        (messageId) => deliveryOf(db, messageId, input.vendor, input.sessionId)?.state === 'pending',
      )
      if (still.length === 0) return { turn: null, problem: 'already carried by another process' }
      const id = insertTurn(
        db,
        {
          vendor: input.vendor,
          sessionId: input.sessionId,
          channel: input.channel,
          cause: input.cause,
          why: input.why,
          messages: still,
          state: 'starting',
          ownerPid: input.ownerPid,
          ownerStart: input.ownerStart,
          worktree: input.worktree,
        },
        input.now,
      )
      if (id === null) return { turn: null, problem: 'turn-running' }
      for (const messageId of still)
        moveDelivery(
          db,
          { messageId, vendor: input.vendor, sessionId: input.sessionId },
          ['pending'],
          { state: 'starting', channel: input.channel, reason: null, turnId: id },
          input.now,
        )
      return { turn: turnById(db, id), problem: null }
    })
    .immediate()
}

interface Target {
  readonly vendor: DeliveryVendor
  readonly sessionId: string
  /** How the message names it; a handle wins over a worktree, both over the thread. */
  readonly by: 'handle' | 'worktree' | 'thread'
}

const rank: Record<Target['by'], number> = { handle: 3, worktree: 2, thread: 1 }

/**
 * The sessions of this machine a message tags: the agent of each `@handle` among its recipients,
 * every agent session not offline in a `#worktree` among them, and, for a post into a thread, the
 * sessions its participants name the same way (D272). A message to the whole room, to `@all`,
 * `@everyone` or `@human` tags no session (it reaches them at their next prompt).
 *
 * A thread never routes a post back to whoever made it: not to the session that posted it, and,
 * for an agent's post that names no session (Codex's MCP server has none to give), to no session
 * of the poster's human in the worktree it was posted from, since any of them may be the poster.
 */
export function tagTargets(
  message: StoredMessage,
  directory: ReturnType<typeof loadDirectory>,
  machine: string,
  thread: RoomThread | null = null,
): Target[] {
  const found = new Map<string, Target>()
  const add = (vendor: string, sessionId: string, by: Target['by']): void => {
    const key = `${vendor}:${sessionId}`
    const known = found.get(key)
    if (!isDeliveryVendor(vendor) || (known !== undefined && rank[known.by] >= rank[by])) return
    found.set(key, { vendor, sessionId, by })
  }
  const route = (token: string, by: Target['by'], skip: (agent: DirectoryAgent) => boolean): void => {
    if (token.startsWith('@')) {
      const handle = token.slice(1)
      if (handle === 'all' || handle === 'everyone' || handle === 'human') return
      for (const agent of directory.agents)
        if (agent.handle === handle && agent.machine === machine && !skip(agent))
          add(agent.vendor, agent.sessionId, by)
    } else if (token.startsWith('#')) {
      const target = token.slice(1)
      const places = directory.worktrees.filter(
        (worktree) => worktree.target === target && worktree.machine === machine,
      )
      for (const place of places)
        for (const agent of directory.agents)
          if (
            agent.machine === machine &&
            agent.worktree === place.path &&
            agent.state !== 'offline' &&
            !skip(agent)
          )
            add(agent.vendor, agent.sessionId, by)
    }
  }
  for (const token of message.recipients)
    route(token, token.startsWith('@') ? 'handle' : 'worktree', () => false)
  if (thread !== null && thread.id === message.threadId) {
    const poster = (agent: DirectoryAgent): boolean =>
      message.session !== null
        ? agent.vendor === message.session.vendor && agent.sessionId === message.session.sessionId
        : message.author !== 'human' &&
          message.worktree !== null &&
          agent.worktree === message.worktree &&
          agent.human === message.human
    for (const token of thread.participants) route(token, 'thread', poster)
  }
  return [...found.values()]
}

/** `: <the log's last line>` (what the CLI said as it failed, at most 300 characters), or nothing. */
function saidIn(logFile: string): string {
  let text: string
  try {
    text = readFileSync(logFile, 'utf8')
  } catch {
    return ''
  }
  const last = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1)
  return last === undefined ? '' : `: ${last.slice(0, 300)}`
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error'
}

export type { VendorAbilities }
