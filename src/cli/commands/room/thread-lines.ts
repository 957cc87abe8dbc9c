import type { ThreadView } from '../../../services/room/message-view.ts'

/** One thread for a terminal. */
export function threadLines(thread: ThreadView): string {
  const reason = thread.reason === null ? '' : ` — ${thread.reason}`
  const paths = thread.paths.length === 0 ? '' : `\n  paths: ${thread.paths.join(', ')}`
  return `${thread.id} [${thread.status}, ${thread.audience}, ${thread.lifetime}] ${thread.title}${reason}\n  participants: ${thread.participants.join(' ')} (opened by ${thread.source})${paths}`
}
