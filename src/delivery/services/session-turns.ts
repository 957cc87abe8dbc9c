import { resolve } from 'node:path'
import { isSameProcess } from '../../agents/process-identity.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import type { Random } from '../../shared/random.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { deliveryVendors, isDeliveryVendor } from '../core/delivery-vocabulary.ts'
import type { TurnView } from '../protocol/session-view.ts'
import { liveTurnOf, liveTurns, recentTurns, type TurnRow, updateTurn } from '../store/delivery-turn-table.ts'
import type { DeliveryRouter } from './delivery-router.ts'
import { resolveSession } from './session-list.ts'

export type { TurnView } from '../protocol/session-view.ts'

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
 * `start --vendor claude|codex|gemini [--worktree PATH] TEXT`: a new headless session in a worktree of
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
      `unknown vendor "${input.vendor}"; use one of: ${deliveryVendors.join(', ')}`,
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
