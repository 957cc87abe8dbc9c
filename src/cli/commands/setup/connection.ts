import { projectDir } from '../../../config/data-paths.ts'
import { openProject } from '../../../project/services/open-project.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import { formatConnectionLine } from '../../../sync/core/connection-line.ts'
import { sharedKinds } from '../../../sync/core/share.ts'
import { readAttachment } from '../../../sync/services/attachment.ts'
import { readSyncSettings } from '../../../sync/services/settings.ts'
import { OutboxReader } from '../../../sync/store/outbox.ts'
import { readSyncState } from '../../../sync/store/state-table.ts'
import { type CommandRun, readBusyBudgetMs } from '../../command.ts'

export const run: CommandRun = async (ctx) => {
  const project = openProject(ctx.env, ctx.cwd, ctx.clock, {
    busyBudgetMs: readBusyBudgetMs,
    createStore: false,
  })
  try {
    const attachment = readAttachment(projectDir(ctx.env.sangamHome, project.repo.projectId))
    if (attachment === null) {
      throw new SangamError(
        ErrorCode.NotFound,
        'this checkout is not attached to a team server: sangam init --server=<url> creates the project there, sangam join <line> attaches to one',
      )
    }
    const state = readSyncState(project.db)
    const settings = readSyncSettings(project.db)
    const pushedSeq = state?.pushedSeq ?? 0
    const line = formatConnectionLine(attachment)
    ctx.stderr.write(
      "sangam: paste this into `sangam join` on your teammate's checkout; it holds the project key\n",
    )
    return {
      json: {
        line,
        url: attachment.url,
        projectId: attachment.projectId,
        clientId: attachment.clientId,
        attachedAt: attachment.attachedAt,
        cursor: state?.cursor ?? 0,
        pushedSeq,
        pending: new OutboxReader(project.db).count(pushedSeq, sharedKinds(settings)),
        shareToolOutput: settings.shareToolOutput,
      },
      text: line,
    }
  } finally {
    project.close()
  }
}
