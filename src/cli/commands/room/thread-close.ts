import { threadView } from '../../../room/services/message-view.ts'
import { closeThread } from '../../../room/services/threads.ts'
import type { CommandRun } from '../../command.ts'
import type { threadCloseInput } from './inputs.ts'
import { withRoom } from './room-command.ts'
import { threadLines } from './thread-lines.ts'

export const run: CommandRun<typeof threadCloseInput> = (ctx, args) =>
  withRoom(ctx, (scope) => {
    const thread = threadView(closeThread(scope, args.id))
    return { json: { thread }, text: `closed ${thread.id}\n${threadLines(thread)}` }
  })
