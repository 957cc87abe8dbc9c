import { withReadDefaults } from '../../../room/protocol/read-input.ts'
import { messageView } from '../../../room/services/message-view.ts'
import { readMessages } from '../../../room/services/read.ts'
import type { CommandRun } from '../../command.ts'
import type { readInput } from './inputs.ts'
import { messageLines } from './message-text-lines.ts'
import { withProject } from './room-command.ts'

export const run: CommandRun<typeof readInput> = (ctx, _args, options) =>
  withProject(
    ctx,
    (project) => {
      const messages = readMessages(project.db, withReadDefaults(options)).map(messageView)
      return {
        json: { messages },
        text: messages.length === 0 ? 'no messages' : messages.map(messageLines).join('\n'),
      }
    },
    { createStore: false },
  )
