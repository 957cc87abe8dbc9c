import { messageView } from '../../../room/services/message-view.ts'
import { post } from '../../../room/services/post.ts'
import type { CommandRun } from '../../command.ts'
import type { postInput } from './inputs.ts'
import { messageLines } from './message-text-lines.ts'
import { withRoom } from './room-command.ts'

export const run: CommandRun<typeof postInput> = (ctx, args, options) =>
  withRoom(ctx, (scope) => {
    const message = messageView(
      post(scope, {
        text: args.text.join(' '),
        to: options.to,
        kind: options.kind ?? 'message',
        topic: options.topic ?? null,
        threadId: options.thread ?? null,
      }),
    )
    return { json: { message }, text: `posted ${message.id}\n${messageLines(message)}` }
  })
