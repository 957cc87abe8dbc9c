import { listSessions } from '../../../delivery/services/session-list.ts'
import { oneLine } from '../../../shared/terminal-text.ts'
import type { CommandRun } from '../../command.ts'
import { withDelivery } from './delivery-command.ts'
import type { sessionsInput } from './inputs.ts'

export const run: CommandRun<typeof sessionsInput> = (ctx, _args, options) =>
  withDelivery(
    ctx,
    (project, router) => {
      const sessions = listSessions(project, router, options.limit ?? 50)
      const now = ctx.clock.now()
      const lines = sessions.map((session) => {
        const ago = Math.max(0, Math.round((now - session.lastSeenAt) / 60_000))
        // A session's title and places come from transcripts and other machines: one line each (D291).
        const head = `${session.vendor.padEnd(6)} ${oneLine(session.id)} @${oneLine(session.handle)}  ${session.delivery}  ${ago} min ago  ${oneLine(session.worktree ?? '-')} on ${oneLine(session.machineName)}`
        return `${head}\n  ${oneLine(session.title ?? '(no title)')} · ${session.why}`
      })
      return {
        json: { sessions },
        text:
          sessions.length === 0
            ? 'no Claude Code, Codex, Gemini CLI or opencode sessions in this project yet\n'
            : `${lines.join('\n')}\n`,
      }
    },
    { createStore: false },
  )
