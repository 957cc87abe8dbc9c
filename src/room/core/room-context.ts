import type { RoomMessage } from '../protocol/message.ts'

/**
 * The room's part of an agent's context: the messages addressed to the session that it has not
 * been shown, oldest first (the room's order), in at most `budget` characters. What does not fit
 * is never dropped silently: a closing line says how many more there are and the command that
 * lists them, `sangam read --after <the last one shown>` (they all come after it in that order).
 */
export interface RoomContextInput {
  /** The unseen addressed messages, in the room's order (possibly only the first of them). */
  readonly messages: readonly RoomMessage[]
  /** How many unseen addressed messages there are in all (≥ messages.length). */
  readonly total: number
  /** The session's own tokens, named in the header so the agent knows why it is told. */
  readonly addresses: readonly string[]
  readonly budget: number
}

export interface RoomContext {
  /** Empty when there is nothing to say. */
  readonly text: string
  readonly shown: number
  /** Addressed messages not shown (past the budget): the closing line counts them. */
  readonly more: number
}

/** A message's text is cut past this, so one long message cannot take the whole budget. */
export const maxContextMessageChars = 800

export function roomContext(input: RoomContextInput): RoomContext {
  if (input.total === 0 || input.messages.length === 0) return { text: '', shown: 0, more: input.total }
  const mine = input.addresses.filter((token) => token !== '@all' && token !== '@everyone')
  const header = `sangam room: ${input.total} new message${input.total === 1 ? '' : 's'} for you${
    mine.length === 0 ? '' : ` (${mine.join(', ')})`
  } or the whole room. Answer with \`sangam post --to @<sender> …\` (or MCP room_post).`
  const blocks = input.messages.map((message) => messageBlock(message, maxContextMessageChars))
  const textOf = (count: number): string => {
    const more = input.total - count
    const last = input.messages[count - 1]
    const tail =
      more === 0
        ? []
        : [
            last === undefined
              ? `… ${more} more for you not shown here: \`sangam read\` lists them.`
              : `… ${more} more for you not shown here: \`sangam read --after ${last.id}\` lists them.`,
          ]
    return [header, ...blocks.slice(0, count), ...tail].join('\n')
  }
  let count = 0
  while (count < blocks.length && textOf(count + 1).length <= input.budget) count += 1
  if (count === 0) {
    // Not even one whole message fits: the first is cut to what does, so the context still says
    // who wrote what, and the closing line points at the rest.
    const first = input.messages[0] as RoomMessage
    const room = input.budget - textOf(0).length - 80
    blocks[0] = messageBlock(first, Math.max(40, room))
    count = 1
  }
  const text = textOf(count)
  return {
    text: text.length <= input.budget ? text : `${text.slice(0, input.budget - 1)}…`,
    shown: count,
    more: input.total - count,
  }
}

function messageBlock(message: RoomMessage, maxChars: number): string {
  const time = new Date(message.at).toISOString().slice(11, 16)
  // A thread's post is for its participants (D272): it names the thread, not the room.
  const to =
    message.recipients.length > 0
      ? ` → ${message.recipients.join(' ')}`
      : message.threadId === null
        ? ' → the room'
        : ''
  const thread = message.threadId === null ? '' : ` in ${message.threadId}`
  const kind = message.kind === 'message' ? '' : ` (${message.kind})`
  const topic = message.topic === null ? '' : ` [${message.topic}]`
  const text = message.text.length <= maxChars ? message.text : `${message.text.slice(0, maxChars - 1)}…`
  return `- ${message.sender}${to}${thread}${kind}${topic} at ${time} UTC (${message.id}):\n  ${text.replaceAll('\n', '\n  ')}`
}
