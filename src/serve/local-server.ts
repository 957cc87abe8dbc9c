import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import type { LogLevel } from 'miniflare'
import { z } from 'zod'
import type { Logger } from '../shared/logger.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { servedProjectIds } from '../store/server/served-projects.ts'
import type { ServeRuntime } from './serve-runtime.ts'
import { claimWorkerdChild, type WorkerdProcess, watchOver } from './workerd-process.ts'

/**
 * The sync server running on this machine: the same Worker bundle and the same config that
 * `wrangler deploy` ships (built into dist/server by `npm run build`), run by workerd through
 * Miniflare, with every project's Durable Object storage persisted under `dataDir`.
 */
export interface LocalServerOptions {
  readonly host: string
  /** 0 picks a free port. */
  readonly port: number
  readonly dataDir: string
  readonly log: Logger
  /** Overrides of the Worker's vars (its limits), e.g. `{ PUSHES_PER_SECOND: '5' }`. */
  readonly vars?: Readonly<Record<string, string>> | undefined
  /**
   * Start a watchdog that kills workerd if this process dies, even by `kill -9` (`sangam serve`).
   * Off for in-process use (tests, benchmarks), where Miniflare's exit hook stops workerd.
   */
  readonly watchdog?: boolean | undefined
  /**
   * The Workers runtime (serve/serve-runtime.ts finds it); by default the one Node resolves from
   * sangam's own files, as in the development checkout the tests and benchmarks run in.
   */
  readonly runtime?: ServeRuntime | undefined
}

export interface LocalServer {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string
  readonly dataDir: string
  /** The workerd process serving, when `ps` could name it; a watchdog kills it if this process dies. */
  readonly workerd: WorkerdProcess | null
  readonly watchdogPid: number | null
  /** Stops workerd; storage is flushed with every request, so nothing is lost by stopping. */
  close(): Promise<void>
}

/** dist/server from both src/serve/ (tests under tsx) and dist/cli/ (the built CLI). */
export const workerBundleDir = join(import.meta.dirname, '..', '..', 'dist', 'server')

const workerConfigSchema = z.object({
  name: z.string(),
  compatibilityDate: z.string(),
  compatibilityFlags: z.array(z.string()),
  durableObjects: z.array(z.object({ binding: z.string(), className: z.string() })),
  vars: z.record(z.string(), z.string()),
})

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const config = readWorkerConfig()
  const persistDir = prepareDataDir(options.dataDir)
  // The registrar lists these at start, so projects created before it kept ids still open, and
  // with the list complete an unknown id is refused outright (server/src/project-registry.ts).
  const registered = servedProjectIds(persistDir)
  if (options.port !== 0) await refuseTakenPort(options.host, options.port)
  const log = options.log.child({ component: 'local-server' })
  const runtime = options.runtime ?? ((await import('miniflare')) as ServeRuntime)
  const miniflare = withoutSignalHandlers(
    () =>
      new runtime.Miniflare({
        name: config.name,
        modules: true,
        scriptPath: join(workerBundleDir, 'worker.js'),
        // Module names are paths below this root; the default (the cwd) breaks when run from elsewhere.
        modulesRoot: workerBundleDir,
        compatibilityDate: config.compatibilityDate,
        compatibilityFlags: config.compatibilityFlags,
        durableObjects: Object.fromEntries(
          config.durableObjects.map(({ binding, className }) => [binding, { className, useSQLite: true }]),
        ),
        durableObjectsPersist: persistDir,
        bindings: {
          ...config.vars,
          ADOPT_UNREGISTERED_DAYS: '0',
          REGISTERED_PROJECTS: JSON.stringify(registered),
          ...options.vars,
        },
        host: options.host,
        port: options.port,
        // The real Request.cf needs the network; the server never reads it.
        cf: false,
        log: loggerLog(runtime, log),
        handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
          forwardLines(stdout, (line) => log.info(line))
          forwardLines(stderr, (line) => log.warn(line))
        },
      }),
  )
  let ready: URL
  try {
    ready = await miniflare.ready
  } catch (error) {
    await miniflare.dispose().catch(() => undefined)
    const reason = error instanceof Error ? error.message : String(error)
    throw new SangamError(
      ErrorCode.Internal,
      `workerd did not start (see the log above): ${reason}`,
      undefined,
      {
        cause: error,
      },
    )
  }
  const url = `http://${ready.host}`
  const workerd = claimWorkerdChild()
  const watchdog = workerd === null || options.watchdog !== true ? null : watchOver(workerd)
  if (workerd === null && options.watchdog === true)
    log.warn('cannot name the workerd process: it may outlive a killed serve')
  log.info('serving', { url, dataDir: options.dataDir, workerdPid: workerd?.pid })
  return {
    url,
    dataDir: options.dataDir,
    workerd,
    watchdogPid: watchdog?.pid ?? null,
    close: async () => {
      // The watchdog goes first: once Miniflare has stopped workerd, its pid is free for reuse.
      watchdog?.stop()
      await miniflare.dispose()
    },
  }
}

function readWorkerConfig(): z.infer<typeof workerConfigSchema> {
  const path = join(workerBundleDir, 'worker-config.json')
  if (!existsSync(path) || !existsSync(join(workerBundleDir, 'worker.js')))
    throw new SangamError(
      ErrorCode.Internal,
      `the server bundle is missing from ${workerBundleDir}: run npm run build`,
    )
  return workerConfigSchema.parse(JSON.parse(readFileSync(path, 'utf8')))
}

/** Creates the data directory (and its Durable Object storage folder) private to the user. */
export function prepareDataDir(dataDir: string): string {
  const persistDir = join(dataDir, 'durable-objects')
  makePrivateDir(dataDir)
  makePrivateDir(persistDir)
  return persistDir
}

function makePrivateDir(path: string): void {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 })
    chmodSync(path, 0o700)
  } catch (error) {
    throw new SangamError(ErrorCode.DataDirUnusable, `cannot use ${path} for server data`, undefined, {
      cause: error,
    })
  }
}

/**
 * Miniflare installs SIGINT and SIGTERM handlers that exit the process on the spot (130/143).
 * sangam owns its signals: a long-running command turns them into one orderly shutdown that ends
 * with `close()` (docs/decisions.md D2). So the handlers `create` adds are taken off again;
 * Miniflare's process 'exit' hook stays, and still stops workerd if the process ends another way.
 */
function withoutSignalHandlers<T>(create: () => T): T {
  const signals = ['SIGINT', 'SIGTERM'] as const
  const before = signals.map((signal) => process.listeners(signal))
  const created = create()
  signals.forEach((signal, index) => {
    for (const listener of process.listeners(signal))
      if (!before[index]?.includes(listener)) process.off(signal, listener)
  })
  return created
}

/**
 * workerd reports a taken port only as "failed to start"; binding it ourselves first turns the
 * common mistake into a clear message. (The port could still be taken in between; then workerd's
 * own error stands.)
 */
async function refuseTakenPort(host: string, port: number): Promise<void> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SangamError(
          ErrorCode.Usage,
          error.code === 'EADDRINUSE'
            ? `port ${port} on ${host} is in use; pick another with --port (0 picks a free one)`
            : `cannot listen on ${host}:${port}: ${error.message}`,
        ),
      ),
    )
    probe.listen(port, host, () => probe.close(() => resolve()))
  })
}

function forwardLines(stream: Readable, write: (line: string) => void): void {
  createInterface({ input: stream }).on('line', (line) => {
    const text = stripVTControlCharacters(line).trim()
    if (text !== '') write(text)
  })
}

/**
 * Miniflare's own messages, through our logger (Miniflare's default writes to stdout). The class
 * extends the runtime's `Log`, which is only there once the runtime is loaded.
 */
function loggerLog(runtime: ServeRuntime, log: Logger): InstanceType<ServeRuntime['Log']> {
  const { Log, LogLevel: Level } = runtime
  return new (class extends Log {
    override logWithLevel(level: LogLevel, message: string): void {
      if (level > this.level) return
      const text = stripVTControlCharacters(message)
      if (level <= Level.ERROR) log.error(text)
      else log.warn(text)
    }
  })(Level.WARN)
}
