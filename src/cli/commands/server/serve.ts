import { resolve } from 'node:path'
import { defaultServerDataDir } from '../../../config/data-paths.ts'
import { acquireServeLock } from '../../../serve/serve-lock.ts'
import type { CommandRun } from '../../command.ts'
import { defaultServePort } from '../../serve-port.ts'
import type { serveInput } from './inputs.ts'

export const run: CommandRun<typeof serveInput> = async (ctx, _args, options) => {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? defaultServePort
  const dataDir =
    options.data === undefined ? defaultServerDataDir(ctx.env.sangamHome) : resolve(ctx.cwd, options.data)
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

function stopped(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
