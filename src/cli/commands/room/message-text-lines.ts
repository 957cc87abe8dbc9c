import type { MessageView } from '../../../services/room/message-view.ts'

/** One message for a terminal: a header line (time, sender, recipients, thread) and its text. */
export function messageLines(message: MessageView): string {
  const time = new Date(message.at).toISOString().slice(0, 16).replace('T', ' ')
  const to = message.recipients.length === 0 ? '' : ` → ${message.recipients.join(' ')}`
  const where = message.threadId === null ? '' : ` [${message.threadId}]`
  const kind = message.kind === 'message' ? '' : ` (${message.kind})`
  const topic = message.topic === null ? '' : ` #${message.topic}`
  return `${time} ${message.sender}${to}${where}${kind}${topic}  ${message.id}\n  ${message.text.replaceAll('\n', '\n  ')}`
}
