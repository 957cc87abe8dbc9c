import { loadMachineId } from '../../../config/machine-id.ts'
import { describeOtherProjects, otherProjectFiles } from '../../../memory/services/other-projects.ts'
import { backfill } from '../../../memory/services/project-capture.ts'
import { countEvents } from '../../../memory/store/event-table.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { registerCapturedSessions } from '../../../room/services/captured-sessions.ts'
import { parseSince } from '../../../shared/time-window.ts'
import type { CommandRun } from '../../command.ts'
import { createProgressBar } from '../../progress.ts'
import type { indexInput } from './inputs.ts'

export const run: CommandRun<typeof indexInput> = async (ctx, _args, options) => {
  const since = parseSince(options.since, ctx.clock.now())
  const project = openProject(ctx.env, ctx.cwd, ctx.clock)
  try {
    const bar = createProgressBar(ctx.stderr, ctx.clock, 'index')
    const result = await backfill(project, {
      since,
      log: ctx.log,
      onProgress: (progress) => bar.update(progress),
    })
    bar.done()
    // The sessions it found are the room's too, with or without their hooks (one directory).
    registerCapturedSessions(
      project.db,
      { machine: loadMachineId(ctx.env.sangamHome), worktrees: project.repo.worktrees },
      ctx.clock.now(),
    )
    const json = {
      projectId: project.repo.projectId,
      since: new Date(since).toISOString(),
      files: result.files,
      captured: result.captured,
      outOfScope: result.outOfScope,
      outOfWindow: result.outOfWindow,
      undecided: result.undecided,
      inserted: result.inserted,
      resets: result.resets,
      moved: result.moved,
      bytes: result.bytes,
      durationMs: result.durationMs,
      totalEvents: countEvents(project.db),
      otherProjects: otherProjectFiles(project.db, since),
    }
    const text = [
      `indexed ${json.captured} transcript file(s) of ${json.files} found since ${json.since}`,
      `  ${json.inserted} new event(s), ${json.totalEvents} in total; ${(json.bytes / (1024 * 1024)).toFixed(1)} MB read in ${(json.durationMs / 1000).toFixed(1)} s`,
      `  ignored: ${json.outOfScope} of other projects, ${json.outOfWindow} older than the window, ${json.undecided} with no cwd yet`,
      ...(json.otherProjects.length > 0
        ? ['  of other projects:', ...describeOtherProjects(json.otherProjects, '    ')]
        : []),
    ].join('\n')
    return { json, text }
  } finally {
    project.close()
  }
}
