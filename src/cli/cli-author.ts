import { type PostChannel, postAuthor } from '../room/core/post-author.ts'
import type { AuthorKind } from '../room/protocol/message.ts'
import type { CommandContext } from './command.ts'

/**
 * Who is typing at this command (`room/core/post-author.ts`): an agent when the process carries an
 * agent's variables, a person when its standard input is a terminal, else nobody can tell.
 */
export function cliAuthor(ctx: CommandContext, channel: PostChannel = 'cli'): AuthorKind {
  return postAuthor({ channel, terminal: ctx.stdin.isTTY === true, agentMarkers: ctx.env.agentMarkers })
}
