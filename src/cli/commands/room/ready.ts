import { basename } from 'node:path'
import { mainOutsideOf, outsideText } from '../../../lanes/services/main-record.ts'
import { readyText } from '../../../room/core/ready-text.ts'
import { projectDaemonRound, statesLine } from '../../../room/services/daemon-round.ts'
import { ready } from '../../../room/services/ready.ts'
import type { CommandRun } from '../../command.ts'
import type { readyInput } from './inputs.ts'
import { readyProgress } from './ready-progress.ts'
import { withProject } from './room-command.ts'

export const run: CommandRun<typeof readyInput> = (ctx, _args, options) =>
  withProject(
    ctx,
    async (project) => {
      const progress = readyProgress(ctx.stderr)
      try {
        const verdict = await ready(project.db, ctx.cwd, options.into ?? null, {
          now: ctx.clock.now(),
          onProgress: progress,
          daemon: projectDaemonRound(project),
        })
        // ready weighs worktrees against main: a main moved outside sangam is said with it (D300).
        const outside = mainOutsideOf({ db: project.db, clock: ctx.clock, root: project.repo.root })
        if (outside !== null && !options.json) ctx.stderr.write(`warning: ${outsideText(outside)}\n`)
        return {
          json: { ...verdict, mainOutside: outside },
          text: [readyText(verdict, (path) => basename(path)), statesLine(verdict.states)]
            .filter((part) => part !== null)
            .join('\n'),
        }
      } finally {
        progress.end()
      }
    },
    { createStore: false },
  )
