import { collisionsLines, collisionsOnRead } from '../../../room/services/collisions-on-read.ts'
import { threadView } from '../../../room/services/message-view.ts'
import { listThreads } from '../../../room/services/threads.ts'
import { systemRandom } from '../../../shared/random.ts'
import type { CommandRun } from '../../command.ts'
import type { threadsInput } from './inputs.ts'
import { withProject } from './room-command.ts'
import { threadLines } from './thread-lines.ts'

export const run: CommandRun<typeof threadsInput> = (ctx, _args, options) =>
  withProject(
    ctx,
    async (project) => {
      const collisions = await collisionsOnRead(project, { random: systemRandom })
      const threads = listThreads(project.db, { all: options.all }).map(threadView)
      const none = options.all ? 'no threads' : 'no open threads (--all shows closed ones too)'
      const lines = threads.length === 0 ? [none] : threads.map(threadLines)
      return { json: { threads, collisions }, text: [...lines, ...collisionsLines(collisions)].join('\n') }
    },
    { createStore: false },
  )
