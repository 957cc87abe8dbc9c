import { version } from '../../../config/version.ts'
import { type DaemonStatus, runUp } from '../../../daemon/up-daemon.ts'
import { parseSince } from '../../../shared/time-window.ts'
import type { CommandRun } from '../../command.ts'
import { startUiSession } from '../ui/ui-session.ts'
import { DaemonStatusLines, describe } from './daemon-status-lines.ts'
import type { upInput } from './inputs.ts'

export const run: CommandRun<typeof upInput> = async (ctx, _args, options) => {
  const since = parseSince(options.since, ctx.clock.now())
  const json = options.json
  // Status changes stream as they happen, one JSON object per line with --json.
  let ui: Promise<Awaited<ReturnType<typeof startUiSession>> | null> | null = null
  const lines = new DaemonStatusLines()
  const print = (status: DaemonStatus): void => {
    if (json) ctx.stdout.write(`${JSON.stringify(status)}\n`)
    else {
      const line = lines.line(status)
      if (line === null) ctx.log.debug(describe(status))
      else ctx.stdout.write(`${line}\n`)
    }
    // --ui: the dashboard starts once this is the project's one daemon (its lock is taken).
    // One that cannot start (its port taken) says why and leaves the daemon running.
    if (status.type === 'started' && options.ui)
      ui = startUiSession(ctx, { port: options.uiPort, open: options.open, json }).catch((error: unknown) => {
        ctx.log.error(
          `the dashboard did not start: ${error instanceof Error ? error.message : String(error)}`,
        )
        return null
      })
  }
  try {
    await runUp({
      env: ctx.env,
      cwd: ctx.cwd,
      clock: ctx.clock,
      log: ctx.log,
      since,
      version,
      pid: process.pid,
      stopSignal: ctx.stopSignal,
      onStatus: print,
    })
  } finally {
    const started = await (ui as Promise<Awaited<ReturnType<typeof startUiSession>> | null> | null)
    await started?.close()
  }
  return { json: undefined, text: '' }
}
