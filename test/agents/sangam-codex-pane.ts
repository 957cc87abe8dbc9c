import { cliEntry } from '../helpers/run-cli.ts'
import type { AgentLab } from './agent-lab.ts'
import { openTmuxPane, type TmuxPane } from './tmux-pane.ts'

/**
 * `sangam codex [flags] "Start here."` (the real Codex TUI under sangam) in a tmux pane of the
 * lab, returned once the pane shows the first turn's reply: the Codex TUI scenarios script it to
 * say `READY-first-turn`, and start from a session that has answered. `tuiEnv` is the lab's Codex
 * TUI environment (`lab.codexTui()`, taken before install-hooks writes its part of the config).
 */
export async function openSangamCodex(
  lab: AgentLab,
  tuiEnv: Record<string, string | undefined>,
  flags: readonly string[] = [],
): Promise<TmuxPane> {
  const command = [process.execPath, cliEntry, 'codex', ...flags, '"Start here."'].join(' ')
  const pane = openTmuxPane(lab.home, lab.repo.path, command, tuiEnv)
  try {
    await pane.waitFor(/READY-first-turn/, 'the first reply')
  } catch (error) {
    await pane.close()
    throw error
  }
  return pane
}
