import { readFileSync } from 'node:fs'
import type { SpawnChannel } from '../../agents/agent-vendor.ts'
import { processStart } from '../../agents/process-identity.ts'
import { deliveryOf } from '../../agents/vendors.ts'
import { deliveryLogFile } from '../../config/data-paths.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Db } from '../../store/db.ts'
import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'
import { type TurnRow, turnById, updateTurn } from '../store/delivery-turn-table.ts'
import { newSessionIdOf } from './new-session-id.ts'
import { launchTurn } from './turn-launcher.ts'
import { failTurn, moveTurn, recordStarted } from './turn-ledger.ts'
import type { VendorCli } from './vendor-cli.ts'

/** What a turn's process is started with: the router's options and the children it watches. */
export interface SpawnContext {
  readonly db: Db
  readonly clock: Clock
  readonly log: Logger
  /** The project's data directory (turn logs go under it). */
  readonly projectDir: string
  readonly vendorEnv: Readonly<Record<string, string>>
  readonly earlyExitMs?: number | undefined
  /** Children this process started, so it records their exit (the sweep covers the others). */
  readonly children: Set<Promise<void>>
}

/**
 * Starts a claimed turn's vendor CLI through its channel and records it running; a CLI that fails
 * at once (or a hand-off to the vendor's own daemon) is waited for, so the answer says so.
 */
export async function spawnTurn(
  context: SpawnContext,
  turn: TurnRow,
  cli: VendorCli,
  channel: SpawnChannel,
  prompt: string,
  cwd: string,
): Promise<[TurnRow | null, string | null]> {
  const { db, clock } = context
  const logFile = deliveryLogFile(context.projectDir, turn.id)
  if (cli.path === null)
    return [failTurn(db, clock, turn, 'the vendor CLI is not installed'), 'the vendor CLI is not installed']
  let launched: Awaited<ReturnType<typeof launchTurn>>
  try {
    launched = await launchTurn({
      executable: cli.path,
      command: deliveryOf(turn.vendor as DeliveryVendor).command(channel, turn.sessionId, prompt),
      cwd,
      env: { ...context.vendorEnv, SANGAM_DELIVERY_TURN: String(turn.id) },
      logFile,
    })
  } catch (error) {
    const why = `${cli.path} could not be started: ${messageOf(error)}`
    return [failTurn(db, clock, turn, why), why]
  }
  // Queue and background hand the turn to the vendor's own daemon: their command ends at once.
  const handsOff = channel === 'queue' || channel === 'background'
  recordStarted(db, clock, turn, 'running', {
    pid: launched.pid,
    pidStart: processStart(launched.pid),
    logFile,
  })
  const watched = launched.exited
    .then(({ code, signal }) => {
      const ended = clock.now()
      const named = turnById(db, turn.id)
      if (named === null) return
      // A new session its CLI named after the launch stopped watching: the turn takes its id now.
      const learned = newSessionIdOf(named)
      if (learned !== null) updateTurn(db, turn.id, [named.state], { state: named.state, sessionId: learned })
      const current = turnById(db, turn.id)
      if (current === null) return
      // The daemon's sweep (ledger-scan.ts) may have seen the process gone first and ended the
      // turn without its code, which only this waiter knows: it is recorded all the same.
      if (current.state === 'ended' && current.exitCode === null && code !== null) {
        updateTurn(db, turn.id, ['ended'], { state: 'ended', exitCode: code })
        return
      }
      if (current.state !== 'running') return
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
      moveTurn(db, turn, {
        from: ['running'],
        to: { state: 'failed', exitCode: code, endedAt: ended, detail: why },
        tagsFrom: ['delivered'],
        tagsTo: { state: 'failed', reason: why },
        at: ended,
      })
    })
    .catch((error: unknown) =>
      context.log.warn('cannot record the end of a turn', { turn: turn.id, error: messageOf(error) }),
    )
  context.children.add(watched)
  void watched.finally(() => context.children.delete(watched))
  const early = context.earlyExitMs ?? 0
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
  const newSessionIdIn = deliveryOf(turn.vendor as DeliveryVendor).newSessionIdIn
  if (newSessionIdIn !== null && turn.sessionId.startsWith('new:')) await learnNewSession(db, turn.id)
  const after = turnById(db, turn.id)
  return [after, after?.state === 'failed' ? after.detail : null]
}

/**
 * A new session named by its CLI (Codex, opencode: its first JSON event): the turn takes its id
 * when it appears within 10 s; a slower one is learned when the turn ends (new-session-id.ts).
 */
async function learnNewSession(db: Db, turnId: number): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const turn = turnById(db, turnId)
    if (turn === null) return
    const id = newSessionIdOf(turn)
    if (id !== null) {
      updateTurn(db, turnId, [turn.state], { state: turn.state, sessionId: id })
      return
    }
    if (turn.state !== 'running') return
    await new Promise((done) => setTimeout(done, 100))
  }
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

/** An error's first line, for a ledger reason. */
export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error'
}
