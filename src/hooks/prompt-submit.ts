import { type HookAnswer, quiet } from './hook-answer.ts'
import { markPresence, type PresenceMark } from './presence-mark.ts'

/**
 * UserPromptSubmit: a prompt arrived, so the session is online. The answer is quiet for now; the
 * room's messages for the session join its context here (the seam for the room's context).
 */
export function submitPrompt(mark: Omit<PresenceMark, 'state'>): HookAnswer {
  const problem = markPresence({ ...mark, state: 'online' })
  return quiet(problem ?? 'online')
}
