/** A message as the delivered prompt quotes it. */
export interface PromptMessage {
  readonly id: string
  readonly sender: string
  readonly at: number
  readonly text: string
  /** Posted by an agent session (answered by its `@handle`), else by a human (`@human`). */
  readonly fromAgent: boolean
  /** The thread it was posted into (answered there), or null. */
  readonly threadId: string | null
}

/** Past this many characters the prompt is too long for a vendor channel that takes it in argv. */
export const maxArgvPromptChars = 32 * 1024

/**
 * The prompt a delivered turn starts with: who tagged the session, each message (oldest first),
 * and that the repository may have moved since the session last looked, so it re-observes before
 * acting, then answers in the room.
 */
export function deliveryPrompt(messages: readonly PromptMessage[], why: 'tag' | 'send'): string {
  const senders = [...new Set(messages.map((message) => message.sender))]
  const head =
    why === 'send'
      ? `${senders.join(', ')} continued this session through sangam with ${messages.length === 1 ? 'a message' : `${messages.length} messages`}.`
      : `You were tagged in the sangam room by ${senders.join(', ')} while this session was at rest (${messages.length} message${messages.length === 1 ? '' : 's'}).`
  const body = messages.map(
    (message) =>
      `From ${message.sender} at ${new Date(message.at).toISOString().slice(0, 16).replace('T', ' ')} UTC${message.threadId === null ? '' : ` in thread ${message.threadId}`} (${message.id}):\n${message.text}`,
  )
  const tail =
    'Before acting, re-observe the repository (git status, the branch, the files you will touch): it may have changed since this session last looked. ' +
    `Then answer in the room when useful: \`sangam post ${replyTo(messages)} …\` (or MCP room_post).`
  return [head, ...body, tail].join('\n\n')
}

/** Where the answer goes: the thread the last message was posted into, else its sender. */
function replyTo(messages: readonly PromptMessage[]): string {
  const last = messages[messages.length - 1]
  if (last !== undefined && last.threadId !== null) return `--thread ${last.threadId}`
  return last === undefined || !last.fromAgent ? '--to @human' : `--to @${last.sender}`
}
