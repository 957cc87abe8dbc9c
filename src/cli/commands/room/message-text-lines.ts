import type { MessageView } from '../../../room/services/message-view.ts'
import { oneLine } from '../../../shared/terminal-text.ts'

/**
 * One message for a terminal: a header line (time, sender, recipients, thread) and its text,
 * indented. Whatever its fields hold, the header stays one line and the text's lines stay under
 * it, so a message cannot draw a header of its own (D290).
 */
export function messageLines(message: MessageView): string {
  const time = new Date(message.at).toISOString().slice(0, 16).replace('T', ' ')
  const to = message.recipients.length === 0 ? '' : ` → ${oneLine(message.recipients.join(' '))}`
  const where = message.threadId === null ? '' : ` [${oneLine(message.threadId)}]`
  const kind = message.kind === 'message' ? '' : ` (${oneLine(message.kind)})`
  const topic = message.topic === null ? '' : ` #${oneLine(message.topic)}`
  const header = `${time} ${oneLine(message.sender)}${to}${where}${kind}${topic}  ${oneLine(message.id)}`
  return `${header}\n  ${message.text.replaceAll('\n', '\n  ')}`
}
