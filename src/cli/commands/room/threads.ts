import { threadView } from '../../../services/room/message-view.ts'
import { listThreads } from '../../../services/room/threads.ts'
import type { CommandRun } from '../../command.ts'
import type { threadsInput } from './inputs.ts'
import { withProject } from './room-command.ts'
import { threadLines } from './thread-lines.ts'

export const run: CommandRun<typeof threadsInput> = (ctx, _args, options) =>
  withProject(
    ctx,
    (project) => {
      const threads = listThreads(project.db, { all: options.all }).map(threadView)
      const none = options.all ? 'no threads' : 'no open threads (--all shows closed ones too)'
      return { json: { threads }, text: threads.length === 0 ? none : threads.map(threadLines).join('\n') }
    },
    { createStore: false },
  )
