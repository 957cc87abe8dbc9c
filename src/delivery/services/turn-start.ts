import { stopClaudeBackground } from '../../agents/claude/services/claude-background.ts'
import { processStart } from '../../agents/process-identity.ts'
import type { WakeInPlace } from '../../agents/wake-in-place.ts'
import { readOptionGroup } from '../../options/services/option-store.ts'
import { roomOptions } from '../../room/core/settings.ts'
import type { DeliveryDecision } from '../core/delivery-decision.ts'
import type { DeliveryVendor } from '../core/delivery-vocabulary.ts'
import type { DeliveryRow } from '../store/delivery-ledger.ts'
import { type TurnRow, turnById } from '../store/delivery-turn-table.ts'
import type { SessionKey } from './session-tags.ts'
import { claimTurn, failTurn, moveTurn, recordStarted, resumeInstead } from './turn-ledger.ts'
import { messageOf, type SpawnContext, spawnTurn } from './turn-spawn.ts'
import type { VendorCli } from './vendor-cli.ts'

/** What starting a turn needs of the router: its spawn context, its process, and its lookups. */
export interface TurnStartContext extends SpawnContext {
  /** The process delivering: recorded as each turn's owner. */
  readonly pid: number
  readonly vendorCli: (vendor: DeliveryVendor) => VendorCli
  readonly wakeFor: (vendor: DeliveryVendor) => WakeInPlace | undefined
  /** Where a turn runs: the session's worktree when it is one of this machine's, else the fallback. */
  readonly cwdFor: (worktree: string | null) => string
}

/** Records `starting`, then starts the turn through its channel, then records what happened. */
export async function startTurn(
  context: TurnStartContext,
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
): Promise<[TurnRow | null, string | null]> {
  const { db, clock } = context
  const claimed = claimTurn(db, {
    ...session,
    channel,
    cause: decision.humanCause ? 'human' : 'agent',
    why: rows.some((row) => row.mode === 'send') ? 'send' : 'tag',
    messageIds: rows.map((row) => row.messageId),
    ownerPid: context.pid,
    ownerStart: processStart(context.pid),
    worktree,
    cooldownMs: readOptionGroup(db, roomOptions).deliveryCooldown * 1000,
    now: clock.now(),
  })
  if (claimed.turn === null) return [null, claimed.problem]
  const turn = claimed.turn
  if (channel === 'wake') return await wakeTurn(context, turn, prompt)
  const cli = known ?? context.vendorCli(session.vendor)
  const cwd = context.cwdFor(worktree)
  if (stopFirst !== null && cli.path !== null) {
    const stopped = stopClaudeBackground(cli.path, stopFirst, context.vendorEnv, cwd)
    if (stopped !== null) return [failTurn(db, clock, turn, stopped), stopped]
  }
  const [after, problem] = await spawnTurn(context, turn, cli, channel, prompt, cwd)
  if (channel === 'background' && after !== null && after.state === 'failed' && after.pid !== null) {
    // `claude --bg` refused at once (2.1.332 says "Workspace not trusted" for a repository never
    // opened in its TUI, D176): the same tags, in the same look, through `--print --resume`.
    const retry = resumeInstead(db, clock, context.pid, after)
    if (retry !== null) return await spawnTurn(context, retry, cli, 'resume', prompt, cwd)
  }
  return [after, problem]
}

/** Hands the prompt to the session's live endpoint; a wake that fails leaves the tags pending, marked. */
async function wakeTurn(
  context: TurnStartContext,
  turn: TurnRow,
  prompt: string,
): Promise<[TurnRow | null, string | null]> {
  const { db, clock } = context
  const wake = context.wakeFor(turn.vendor as DeliveryVendor)
  const endpoint = wake?.endpointOf(turn.sessionId) ?? null
  try {
    if (wake === undefined || endpoint === null) throw new Error('the session has no live endpoint any more')
    await wake.wake(endpoint, turn.sessionId, prompt)
  } catch (error) {
    const why = `wake failed: ${messageOf(error)}`
    // Back to pending, marked: the next look takes another channel (resume) for them.
    const at = clock.now()
    moveTurn(db, turn, {
      from: ['starting'],
      to: { state: 'failed', detail: why, endedAt: at },
      tagsFrom: ['starting'],
      tagsTo: { state: 'pending', reason: why, turnId: null },
      at,
    })
    return [turnById(db, turn.id), why]
  }
  // The turn runs inside the live session; its own hooks show it running, then at rest.
  recordStarted(db, clock, turn, 'ended', {
    endedAt: clock.now(),
    detail: `turn started in place at ${endpoint}`,
  })
  return [turnById(db, turn.id), null]
}
