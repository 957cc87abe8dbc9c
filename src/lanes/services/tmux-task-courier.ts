import { spawnSync } from 'node:child_process'
import type { TaskCourier } from './task-courier.ts'

/**
 * Hands a task to the lane's agent by pasting it into the tmux pane its agent was started in
 * (`tmux load-buffer` then `paste-buffer`): Enter is never pressed, so the agent's human sees it
 * and submits it. A lane without a recorded pane, or a pane tmux no longer knows, is refused with
 * the reason, and `sync` restores the lane.
 */
export class TmuxTaskCourier implements TaskCourier {
  readonly #panes: (lane: string) => string | null
  readonly #env: Readonly<Record<string, string>>

  /** `panes` answers a lane's recorded pane; `env` is what tmux runs with (its TMUX finds the server). */
  constructor(panes: (lane: string) => string | null, env: Readonly<Record<string, string>>) {
    this.#panes = panes
    this.#env = env
  }

  async deliver(input: { lane: string; worktree: string; prompt: string }) {
    const pane = this.#panes(input.lane)
    if (pane === null)
      return {
        delivered: false as const,
        reason: `lane ${input.lane} has no tmux pane on record (its agent was not started by sangam lane inside tmux)`,
      }
    const buffer = `sangam-${input.lane}`
    const loaded = this.#tmux(['load-buffer', '-b', buffer, '-'], input.prompt.replace(/\n+$/, ''))
    if (loaded !== null)
      return { delivered: false as const, reason: `tmux could not take the task: ${loaded}` }
    const pasted = this.#tmux(['paste-buffer', '-d', '-t', pane, '-b', buffer])
    if (pasted !== null) return { delivered: false as const, reason: `tmux pane ${pane} is gone: ${pasted}` }
    return { delivered: true as const, channel: `tmux:${pane}` }
  }

  /** Runs tmux; null when it succeeded, else what it said. */
  #tmux(args: readonly string[], input?: string): string | null {
    const result = spawnSync('tmux', args, { input, encoding: 'utf8', env: this.#env, timeout: 10_000 })
    if (result.error) return result.error.message
    return result.status === 0 ? null : result.stderr.trim() || `exit ${result.status}`
  }
}
