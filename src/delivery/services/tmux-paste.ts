import { spawnSync } from 'node:child_process'

/**
 * Pastes text into a tmux pane without pressing Enter: the session's human sees it in their
 * prompt and decides. `load-buffer -` reads it from stdin (never argv), `paste-buffer -p` pastes
 * it bracketed, so its newlines do not submit, and `-d` deletes the buffer. Returns what went
 * wrong, or null.
 */
export function pasteIntoPane(
  pane: string,
  text: string,
  env: Readonly<Record<string, string>>,
): string | null {
  const buffer = `sangam-${process.pid}-${pane.replace(/[^A-Za-z0-9]/g, '')}`
  const load = spawnSync('tmux', ['load-buffer', '-b', buffer, '-'], {
    input: text,
    env,
    encoding: 'utf8',
    timeout: 3000,
  })
  if (load.error !== undefined || load.status !== 0)
    return `tmux load-buffer failed: ${load.error?.message ?? load.stderr.trim()}`
  const paste = spawnSync('tmux', ['paste-buffer', '-p', '-d', '-b', buffer, '-t', pane], {
    env,
    encoding: 'utf8',
    timeout: 3000,
  })
  if (paste.error !== undefined || paste.status !== 0)
    return `tmux paste-buffer failed: ${paste.error?.message ?? paste.stderr.trim()}`
  return null
}
