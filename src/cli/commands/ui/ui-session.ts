import { dirname, join } from 'node:path'
import { systemRandom } from '../../../shared/random.ts'
import type { CommandContext } from '../../command.ts'

/** What `sangam ui` and `sangam up --ui` print first: the line scripts and tests read the URL from. */
export interface UiStarted {
  readonly url: string
  readonly port: number
  readonly pid: number
}

/**
 * Starts the dashboard for the command's project, prints its URL (with `--json`, one JSON line),
 * opens the browser unless told not to, and returns what stops it. The UI code loads only here.
 */
export async function startUiSession(
  ctx: CommandContext,
  options: { readonly port: number | undefined; readonly open: boolean; readonly json: boolean },
): Promise<{ readonly started: UiStarted; close(): Promise<void> }> {
  const { startUiServer } = await import('../../../ui/ui-server.ts')
  const { openBrowser } = await import('../../../ui/browser-opener.ts')
  const server = await startUiServer({
    env: ctx.env,
    cwd: ctx.cwd,
    clock: ctx.clock,
    random: systemRandom,
    log: ctx.log,
    port: options.port ?? 0,
    // The client is compiled beside the CLI: dist/web/ next to dist/cli/.
    webDir: join(dirname(dirname(ctx.cliEntry)), 'web'),
  })
  const started = { url: server.url, port: server.port, pid: process.pid }
  ctx.stdout.write(
    options.json ? `${JSON.stringify({ type: 'ui', ...started })}\n` : `sangam ui: ${server.url}\n`,
  )
  if (options.open) openBrowser(server.url, process.platform, ctx.log)
  return { started, close: () => server.close() }
}
