import { projectBoard, projectBoardText } from '../../../project/services/project-board.ts'
import { systemRandom } from '../../../shared/random.ts'
import type { CommandRun } from '../../command.ts'
import type { boardInput } from './inputs.ts'
import { terminalWidth, withProject } from './room-command.ts'

export const run: CommandRun<typeof boardInput> = (ctx) =>
  withProject(
    ctx,
    async (project) => {
      const board = await projectBoard(project, {
        log: ctx.log,
        random: systemRandom,
        pid: process.pid,
      })
      return { json: board, text: projectBoardText(board, ctx.clock.now(), terminalWidth(ctx)) }
    },
    { createStore: false },
  )
