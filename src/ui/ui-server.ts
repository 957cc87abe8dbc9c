import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { runningDaemon } from '../config/daemon-discovery.ts'
import { attachmentFile, daemonFile, projectDir } from '../config/data-paths.ts'
import type { Environment } from '../config/environment.ts'
import { openProject } from '../project/services/open-project.ts'
import { openProjectDatabase } from '../project/store/project-database.ts'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'
import type { Random } from '../shared/random.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { ChangeMarkReader } from '../store/change-marks.ts'
import { ChangeFeed } from './change-feed.ts'
import { StaticFiles } from './static-files.ts'
import { uiApp } from './ui-app.ts'
import { newUiToken } from './ui-token.ts'

/** The one address the dashboard listens on: loopback, never a wildcard. */
export const uiHost = '127.0.0.1'

export interface UiServerOptions {
  readonly env: Environment
  readonly cwd: string
  readonly clock: Clock
  readonly random: Random
  readonly log: Logger
  /** 0 takes a free port. */
  readonly port: number
  /** The client's compiled files (`dist/web/`). */
  readonly webDir: string
}

export interface UiServer {
  /** The URL to open: it carries the run's token, once. */
  readonly url: string
  readonly port: number
  /** Stops listening, ends the open streams, closes the store. */
  close(): Promise<void>
}

/**
 * Starts the dashboard for the project containing `cwd`: the project opened once (its connection
 * serves the requests), the change feed on a read-only connection of its own (so the server's
 * own writes show in it like anyone's), the HTTP server on 127.0.0.1.
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const project = openProject(options.env, options.cwd, options.clock)
  const { sangamHome } = options.env
  const { projectId } = project.repo
  const watchDb = openProjectDatabase(sangamHome, projectId, { readonly: true })
  const log = options.log.child({ component: 'ui' })
  const feed = new ChangeFeed(new ChangeMarkReader(watchDb), log)
  const token = newUiToken(options.random)
  const context = {
    project,
    random: options.random,
    log,
    actor: { human: project.human, vendor: null, sessionId: null },
    patternRoot: project.repo.root,
    feed,
    files: new StaticFiles(options.webDir),
    live: () => ({
      daemon: runningDaemon(daemonFile(sangamHome, projectId)) !== null,
      attached: existsSync(attachmentFile(projectDir(sangamHome, projectId))),
    }),
  }
  // The app needs the port the server got; no request arrives before `listen` has answered.
  let fetch: ((request: Request) => Response | Promise<Response>) | null = null
  const server = createAdaptorServer({
    fetch: (request) => (fetch === null ? new Response(null, { status: 503 }) : fetch(request)),
  }) as Server
  let port: number
  try {
    port = await listen(server, options.port)
  } catch (error) {
    watchDb.close()
    project.close()
    throw error
  }
  const app = uiApp(context, { port, token })
  fetch = (request) => app.fetch(request)
  feed.start()
  return {
    url: `http://${uiHost}:${port}/?token=${token}`,
    port,
    async close() {
      feed.stop()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Open event streams never end by themselves.
        server.closeAllConnections()
      })
      watchDb.close()
      project.close()
    },
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      reject(
        new SangamError(
          ErrorCode.Usage,
          error.code === 'EADDRINUSE'
            ? `port ${port} on ${uiHost} is in use; pick another with --port, or leave --port out for a free one`
            : `cannot listen on ${uiHost}:${port}: ${error.message}`,
        ),
      )
    }
    server.once('error', failed)
    server.listen(port, uiHost, () => {
      server.off('error', failed)
      resolve((server.address() as AddressInfo).port)
    })
  })
}
