import { vendorFor } from '../agents/vendors.ts'
import { loadMachineId } from '../config/machine-id.ts'
import { recordPane } from '../delivery/store/delivery-ledger.ts'
import { escapeControls } from '../shared/terminal-text.ts'
import type { VendorName } from '../shared/vendor-names.ts'
import type { Db } from '../store/database.ts'
import type { HookAnswer } from './hook-answer.ts'
import { openHookStore } from './hook-store.ts'
import type { StepHandle } from './hook-work.ts'
import { markPresence, type PresenceMark } from './presence-mark.ts'

/** The run's steps a Stop may leave unfinished: its tmux pane, its idle presence. */
export interface StopSteps {
  readonly pane: StepHandle
  readonly presence: StepHandle
}

/** The hand-over is one short write; past this wait for the lock the session stops as it would have. */
const busyTimeoutMs = 500

/** The room's context in a hand-over is the prompt's budget (the brief's). */
const handOverBudget = 2000

/**
 * Stop: the turn ended. When messages tagging the session arrived during the turn, it is kept
 * going once with them (`decision: "block"`, the messages as the reason; both hosts take that
 * answer, and Codex requires JSON on stdout from a Stop hook that exits 0). Not when this turn is
 * itself the continuation of a block (`stop_hook_active`): once. Otherwise the session waits for
 * its human: idle, and the answer is what it was (Claude Code: nothing; Codex: `{}`). A store that
 * cannot be read stops the session as before: the messages wait for its next prompt.
 */
export async function stopTurn(
  host: VendorName,
  mark: Omit<PresenceMark, 'state'>,
  stopHookActive: boolean,
  steps: StopSteps,
): Promise<HookAnswer> {
  const resting: HookAnswer = { stdout: vendorFor(host).restingStopAnswer, stderr: '', outcome: 'idle' }
  const handOver = stopHookActive ? null : await handOverFor(mark, steps.pane)
  if (handOver !== null && typeof handOver !== 'string') {
    steps.presence.done()
    // The turn goes on: the session stays online (its presence is not touched, and the held
    // transaction would make a second connection's presence write wait for nothing).
    return {
      // The host shows the reason (the tagged messages, others' words): escaped as any hook text (D290).
      stdout: `${JSON.stringify({ decision: 'block', reason: escapeControls(handOver.reason) })}\n`,
      stderr: '',
      outcome: `hand-over: ${handOver.tags}`,
      settle: handOver.settle,
    }
  }
  const problem = markPresence({ ...mark, state: 'idle' }, steps.presence)
  return { ...resting, outcome: problem ?? (typeof handOver === 'string' ? handOver : 'idle') }
}

async function handOverFor(
  mark: Omit<PresenceMark, 'state'>,
  paneStep: StepHandle,
): Promise<Awaited<ReturnType<typeof import('../delivery/services/hand-over.ts').takeHandOver>> | string> {
  const { actor, project } = mark
  if (actor.sessionId === null || actor.vendor === null) return null
  let db: Db | null = null
  try {
    db = openHookStore(project.databaseFile, busyTimeoutMs)
    const pane = mark.env.vendorCliEnv.TMUX_PANE
    if (pane !== undefined && pane !== '') recordPane(db, actor.vendor, actor.sessionId, pane, mark.now)
    paneStep.done()
    const { takeHandOver } = await import('../delivery/services/hand-over.ts')
    const open = db
    const handOver = takeHandOver(open, {
      vendor: actor.vendor,
      sessionId: actor.sessionId,
      worktree: project.layout.worktreeRoot,
      machine: loadMachineId(mark.env.sangamHome, mark.random),
      worktrees: project.worktrees,
      budget: handOverBudget,
      now: mark.now,
      pid: process.pid,
    })
    if (handOver === null) {
      open.close()
      return null
    }
    return {
      ...handOver,
      settle: (delivered) => {
        try {
          handOver.settle(delivered)
        } finally {
          open.close()
        }
      },
    }
  } catch (error) {
    db?.close()
    // Kept only if it was not written: a hand-over that failed after it needs nothing kept.
    paneStep.fail(error)
    return `fail-open: no hand-over: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`
  }
}
