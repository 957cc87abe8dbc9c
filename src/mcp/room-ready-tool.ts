import { basename } from 'node:path'
import { z } from 'zod'
import { mainOutsideOf, outsideText } from '../lanes/services/main-record.ts'
import { readyAnswerViewSchema } from '../project/protocol/ready-answer-view.ts'
import { readyText } from '../room/core/ready-text.ts'
import { projectDaemonRound } from '../room/services/daemon-round.ts'
import { ready } from '../room/services/ready.ts'
import { onlyReads } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/** `room_ready`: the same use case as `sangam ready`, from the project directory's checkout. */
const readyTool = defineTool({
  name: 'room_ready',
  title: 'Merge readiness',
  description:
    'Would each worktree merge into the target (default main), and which worktrees would conflict with each ' +
    'other: real git merges of every lane, uncommitted work included, so two lanes editing the same lines are ' +
    'seen before either commits.',
  input: {
    into: z.string().min(1).max(255).optional().describe('the branch the lanes would land on (default main)'),
  },
  output: readyAnswerViewSchema.shape,
  // It writes only its memo of git's answers: nothing anyone else reads changes.
  readOnly: true,
  async run(input, context) {
    const project = context.project(onlyReads)
    const verdict = await ready(project.db, context.projectDir, input.into ?? null, {
      now: context.clock.now(),
      daemon: projectDaemonRound(project),
    })
    // As `sangam ready`: a main moved outside sangam is said with the verdict (D300, D420).
    const mainOutside = mainOutsideOf({ db: project.db, clock: context.clock, root: project.repo.root })
    const text = readyText(verdict, (path) => basename(path))
    return {
      structured: { ...verdict, mainOutside },
      text: mainOutside === null ? text : `${text}\nwarning: ${outsideText(mainOutside)}`,
    }
  },
})

export const roomReadyTools: readonly AnyMcpTool[] = [readyTool]
