import type { HookAnswer } from './hook-answer.ts'
import { markPresence, type PresenceMark } from './presence-mark.ts'

/**
 * Stop: the turn ended, the session waits for its human: idle. Codex requires a JSON object on
 * stdout from a Stop hook that exits 0, so it gets an empty one; Claude Code gets nothing.
 */
export function stopTurn(host: 'claude' | 'codex', mark: Omit<PresenceMark, 'state'>): HookAnswer {
  const problem = markPresence({ ...mark, state: 'idle' })
  return { stdout: host === 'codex' ? '{}\n' : '', stderr: '', outcome: problem ?? 'idle' }
}
