import { resolve } from 'node:path'
import { defaultServerDataDir } from '../../../config/data-paths.ts'
import { readRememberedPort, rememberPort } from '../../../serve/remembered-port.ts'
import { acquireServeLock } from '../../../serve/serve-lock.ts'
import type { Logger } from '../../../shared/logger.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import { defaultServePort } from '../../serve-port.ts'
import type { serveInput } from './inputs.ts'

export const run: CommandRun<typeof serveInput> = async (ctx, _args, options) => {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? defaultServePort
  const dataDir =
    options.data === undefined ? defaultServerDataDir(ctx.env.sangamHome) : resolve(ctx.cwd, options.data)
  // Loaded here, not at the top: Miniflare is most of the CLI's start-up cost and every other
  // command (and the daemon) would pay it too. It is not installed with the CLI (D361).
  const { installServeRuntime, loadServeRuntime, serveRuntimePackage, serveRuntimeVersion } = await import(
    '../../../serve/serve-runtime.ts'
  )
  const installed = options.installRuntime ? await installServeRuntime(ctx.env.sangamHome, ctx.stderr) : null
  const runtime = await loadServeRuntime(ctx.env.sangamHome)
  const { prepareDataDir, startLocalServer } = await import('../../../serve/local-server.ts')
  const vars =
    options.maxProjectSize === undefined ? {} : { MAX_PROJECT_BYTES: String(options.maxProjectSize) }
  prepareDataDir(dataDir)
  const lock = await acquireServeLock(dataDir, ctx.log)
  try {
    const server = await startOnRememberedPort(port, { dataDir, host, log: ctx.log }, (chosen) =>
      startLocalServer({ host, port: chosen, dataDir, log: ctx.log, watchdog: true, runtime, vars }),
    )
    try {
      if (port === 0) rememberPort(dataDir, host, Number(new URL(server.url).port))
      lock.record(server.url, server.workerd, server.watchdogPid)
      // The first line of stdout is the contract: scripts and tests read the URL from it.
      ctx.stdout.write(`${server.url}\n`)
      await stopped(ctx.stopSignal)
    } finally {
      await server.close()
    }
    const { hostname, port: boundPort } = new URL(server.url)
    const runtimeJson = {
      package: serveRuntimePackage,
      version: serveRuntimeVersion,
      installed: installed?.installed ?? false,
    }
    return {
      json: { url: server.url, host: hostname, port: Number(boundPort), dataDir, runtime: runtimeJson },
      text: '',
    }
  } finally {
    lock.release()
  }
}

/**
 * `--port 0` reuses the port this data dir was last served on, so clients' stored URL stays right;
 * only when that port is taken by something else does it take a new one, and says so.
 */
async function startOnRememberedPort<T>(
  requested: number,
  where: { readonly dataDir: string; readonly host: string; readonly log: Logger },
  start: (port: number) => Promise<T>,
): Promise<T> {
  const remembered = requested === 0 ? readRememberedPort(where.dataDir, where.host) : null
  if (remembered === null) return start(requested)
  try {
    return await start(remembered)
  } catch (error) {
    if (!(error instanceof SangamError) || error.code !== ErrorCode.Usage) throw error
    where.log.warn(
      `port ${remembered}, where this data dir was served before, is taken: serving on a new port, to which clients must be moved (docs/server.md)`,
    )
    return start(0)
  }
}

function stopped(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
