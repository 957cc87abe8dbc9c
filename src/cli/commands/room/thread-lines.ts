import type { ThreadView } from '../../../room/services/message-view.ts'
import { oneLine } from '../../../shared/terminal-text.ts'

/** One thread for a terminal; each of its fields stays on its line whatever it holds (D290). */
export function threadLines(thread: ThreadView): string {
  const reason = thread.reason === null ? '' : ` — ${oneLine(thread.reason)}`
  const paths = thread.paths.length === 0 ? '' : `\n  paths: ${oneLine(thread.paths.join(', '))}`
  const head = `${oneLine(thread.id)} [${thread.status}, ${thread.audience}, ${thread.lifetime}] ${oneLine(thread.title)}${reason}`
  return `${head}\n  participants: ${oneLine(thread.participants.join(' '))} (opened by ${oneLine(thread.source)})${paths}`
}
