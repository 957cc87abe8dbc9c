import { boardText } from '../../../core/room/board-text.ts'
import { roomBoard } from '../../../services/room/board.ts'
import { projectDirectory } from '../../../services/room/open-room.ts'
import { systemRandom } from '../../../shared/random.ts'
import type { CommandRun } from '../../command.ts'
import type { boardInput } from './inputs.ts'
import { terminalWidth, withProject } from './room-command.ts'

export const run: CommandRun<typeof boardInput> = (ctx) =>
  withProject(ctx, (project) => {
    const columns = roomBoard(project.db, projectDirectory(project, systemRandom))
    return { json: { columns }, text: boardText(columns, terminalWidth(ctx)) }
  })
