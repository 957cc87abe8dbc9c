import { briefBudget } from '../memory/core/brief-assembly.ts'
import { type HookAnswer, promptContext, quiet } from './hook-answer.ts'
import type { StepHandle } from './hook-work.ts'
import { markPresence, type PresenceMark } from './presence-mark.ts'
import { openRoomContext } from './room-context.ts'

/**
 * UserPromptSubmit: a prompt arrived, so the session is online, and the room's messages for it
 * that it has not seen join its context (within the brief's budget). The cursor moves only once
 * the answer is written (`settle`). A store that cannot be read leaves the prompt alone: the
 * messages wait for the next one.
 */
export function submitPrompt(mark: Omit<PresenceMark, 'state'>, presence: StepHandle): HookAnswer {
  const problem = markPresence({ ...mark, state: 'online' }, presence)
  let context: ReturnType<typeof openRoomContext>
  try {
    context = openRoomContext(mark, briefBudget)
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    return quiet(`fail-open: room context unavailable: ${why}`)
  }
  if (context === null) return quiet(problem ?? 'online')
  const answer = promptContext(context.text)
  return { ...answer, outcome: problem ?? answer.outcome, settle: context.settle }
}
