import { resolve } from 'node:path'
import { defaultServerDataDir } from '../../../config/data-paths.ts'
import { acquireServeLock } from '../../../serve/serve-lock.ts'
import { ErrorCode, SangamError } from '../../../shared/sangam-error.ts'
import type { CommandRun } from '../../command.ts'
import { defaultServePort } from '../../serve-port.ts'

export const run: CommandRun = async (ctx, _args, options) => {
  const host = typeof options.host === 'string' ? options.host : '127.0.0.1'
  const port = parsePort(options.port)
  const dataDir =
    typeof options.data === 'string'
      ? resolve(ctx.cwd, options.data)
      : defaultServerDataDir(ctx.env.sangamHome)
  // Loaded here, not at the top: Miniflare is most of the CLI's start-up cost and every other
  // command (and the daemon) would pay it too.
  const { prepareDataDir, startLocalServer } = await import('../../../serve/local-server.ts')
  prepareDataDir(dataDir)
  const lock = await acquireServeLock(dataDir, ctx.log)
  try {
    const server = await startLocalServer({ host, port, dataDir, log: ctx.log })
    try {
      lock.record(server.url)
      // The first line of stdout is the contract: scripts and tests read the URL from it.
      ctx.stdout.write(`${server.url}\n`)
      await stopped(ctx.stopSignal)
    } finally {
      await server.close()
    }
    const { hostname, port: boundPort } = new URL(server.url)
    return { json: { url: server.url, host: hostname, port: Number(boundPort), dataDir }, text: '' }
  } finally {
    lock.release()
  }
}

function parsePort(value: unknown): number {
  if (value === undefined) return defaultServePort
  const port = Number(value)
  if (typeof value !== 'string' || !/^\d+$/.test(value) || port > 65535)
    throw new SangamError(ErrorCode.Usage, `--port must be a number from 0 to 65535, not "${String(value)}"`)
  return port
}

function stopped(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
