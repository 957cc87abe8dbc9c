import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { definedEnv } from './defined-env.ts'

/**
 * An interactive CLI (the Codex TUI under `sangam codex`) in a detached tmux pane of a private
 * tmux server (its own socket under the lab's home, so it can never attach to a tmux server
 * outside the network namespace). The server is started with the lab's environment, which every
 * command in the pane inherits.
 */
export interface TmuxPane extends AsyncDisposable {
  /** What the pane shows now. */
  screen(): string
  /** Waits until the screen matches (60 s at most: a hang, not a timing claim). */
  waitFor(pattern: RegExp, what: string): Promise<void>
  /** Types text literally, waits until the pane shows it (a TUI may open a popup first), then Enter. */
  type(text: string): Promise<void>
  /** Whether the pane's command still runs. */
  alive(): boolean
  close(): Promise<void>
}

export function openTmuxPane(
  dir: string,
  cwd: string,
  command: string,
  env: Record<string, string | undefined>,
): TmuxPane {
  const socket = join(dir, 'tmux.sock')
  const defined = definedEnv({ ...env, TERM: 'xterm-256color' })
  const tmux = (...args: string[]) =>
    spawnSync('tmux', ['-S', socket, ...args], { env: defined, encoding: 'utf8', timeout: 10_000 })
  // remain-on-exit keeps the pane (and what the command printed last) after the command ends.
  const started = tmux(
    'new-session',
    '-d',
    '-x',
    '200',
    '-y',
    '50',
    '-c',
    cwd,
    'sh',
    '-c',
    `${command}; echo "[pane command exited $?]"; sleep 600`,
  )
  if (started.status !== 0) throw new Error(`tmux new-session failed: ${started.stderr}`)
  const screen = (): string => tmux('capture-pane', '-p', '-S', '-200').stdout ?? ''
  const pane: TmuxPane = {
    screen,
    async waitFor(pattern, what) {
      for (let waited = 0; !pattern.test(screen()); waited += 200) {
        if (waited > 60_000) throw new Error(`the pane never showed ${what} (${pattern}):\n${screen()}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
    async type(text) {
      tmux('send-keys', '-l', text)
      await pane.waitFor(new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')), `the typed "${text}"`)
      await new Promise((resolve) => setTimeout(resolve, 300))
      tmux('send-keys', 'Enter')
    },
    alive: () => !/\[pane command exited \d+\]/.test(screen()),
    async close() {
      tmux('kill-server')
      rmSync(socket, { force: true })
    },
    [Symbol.asyncDispose]: () => pane.close(),
  }
  return pane
}
