import { withPostDefaults } from '../../../room/protocol/post-input.ts'
import { messageView } from '../../../room/services/message-view.ts'
import { post } from '../../../room/services/post.ts'
import type { CommandRun } from '../../command.ts'
import type { postInput } from './inputs.ts'
import { messageLines } from './message-text-lines.ts'
import { withRoom } from './room-command.ts'

export const run: CommandRun<typeof postInput> = (ctx, args, options) =>
  withRoom(ctx, (scope) => {
    const message = messageView(
      post(
        scope,
        withPostDefaults({
          text: args.text.join(' '),
          to: options.to,
          kind: options.kind,
          topic: options.topic,
          threadId: options.thread,
        }),
      ),
    )
    return { json: { message }, text: `posted ${message.id}\n${messageLines(message)}` }
  })
