import { withThreadOpenDefaults } from '../../../room/protocol/thread-open-input.ts'
import { threadView } from '../../../room/services/message-view.ts'
import { openThread } from '../../../room/services/threads.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import type { threadOpenInput } from './inputs.ts'
import { withRoom } from './room-command.ts'
import { threadLines } from './thread-lines.ts'

export const run: CommandRun<typeof threadOpenInput> = async (ctx, _args, options) => {
  const title = options.title
  if (title === undefined) throw new SangamError(ErrorCode.Usage, 'thread-open needs --title <title>')
  return withRoom(ctx, (scope) => {
    const thread = threadView(
      openThread(
        scope,
        withThreadOpenDefaults({
          title,
          reason: options.reason,
          audience: options.audience,
          lifetime: options.lifetime,
          participants: options.participant,
          paths: options.path,
        }),
      ),
    )
    return { json: { thread }, text: `opened ${thread.id}\n${threadLines(thread)}` }
  })
}
