import { version } from '../../../config/version.ts'
import { parseSince } from '../../../core/time-window.ts'
import { type DaemonStatus, runUp } from '../../../daemon/up-daemon.ts'
import type { CommandRun } from '../../command.ts'
import { startUiSession } from '../ui/ui-session.ts'
import type { upInput } from './inputs.ts'

export const run: CommandRun<typeof upInput> = async (ctx, _args, options) => {
  const since = parseSince(options.since, ctx.clock.now())
  const json = options.json
  // Status changes stream as they happen, one JSON object per line with --json.
  let ui: Promise<Awaited<ReturnType<typeof startUiSession>> | null> | null = null
  const print = (status: DaemonStatus): void => {
    ctx.stdout.write(json ? `${JSON.stringify(status)}\n` : `${describe(status)}\n`)
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

function describe(status: DaemonStatus): string {
  switch (status.type) {
    case 'started':
      return `sangam up: project ${status.projectId} (${status.root}), pid ${status.pid}, capturing since ${status.since}`
    case 'watching':
      return `watching ${status.root}`
    case 'ready':
      return `caught up: ${status.files} transcript file(s), ${status.inserted} new event(s) in ${(status.durationMs / 1000).toFixed(1)} s; tailing (Ctrl-C stops)`
    case 'captured':
      return `captured ${status.inserted} event(s) from ${status.path}`
    case 'reset':
      return `${status.path} was rewritten; read again from the start`
    case 'moved':
      return `${status.from} moved to ${status.to}`
    case 'error':
      return `could not capture ${status.path ?? 'transcripts'} (will retry): ${status.message}`
    case 'sync-connected':
      return `team server ${status.url}: connected (${status.cursor} of ${status.headGseq} records applied)`
    case 'sync-pushed':
      return `shared ${status.records} record(s) with the team`
    case 'sync-applied':
      return `received ${status.records} record(s) from the team (${status.events} new event(s))`
    case 'sync-offline':
      return `team server ${status.url} unreachable (${status.message}); working offline, trying again in ${(status.retryInMs / 1000).toFixed(1)} s`
    case 'sync-refused':
      return `team server ${status.url} refused this replica: ${status.message}`
    case 'overlap':
      return `overlap with ${status.target}: ${status.conflicted} conflicted of ${status.rows} shared path row(s) across ${status.lanes} worktree(s); conflict threads opened ${status.opened.length}, closed ${status.closed.length}`
    case 'delivery':
      return status.outcome === 'started'
        ? `delivery: turn ${status.turn} started in ${status.vendor} session ${status.sessionId} (${status.channel}, ${status.messages} message(s))`
        : `delivery: ${status.vendor} session ${status.sessionId}: ${status.outcome}`
    case 'hook-work':
      return `hooks' kept work: ${status.done} done, ${status.dropped} no longer needed, ${status.conflicts} met another lease (its session is told), ${status.waiting} still waiting`
    case 'stopped':
      return 'stopped'
  }
}
