#!/usr/bin/env node
import { readEnvironment } from '../config/environment.ts'
import { version } from '../config/version.ts'
import { systemClock } from '../shared/clock.ts'
import { createLogger, logLevelOf } from '../shared/logger.ts'

/**
 * What Claude Code and Codex run for sangam's MCP server: `node mcp-main.cjs` (install/
 * mcp-registration.ts). An agent CLI waits for `initialize` before its first model request, so
 * this entry is built like the hooks (scripts/build-bundles.mjs): one CommonJS bundle compiled
 * through V8's code cache, instead of the CLI's ES modules and commander. `sangam mcp` runs the
 * same server through the CLI, for a person trying it by hand.
 *
 * This is the MCP server's composition root: the only place it reads process globals.
 */
async function main(): Promise<void> {
  const env = readEnvironment(process.env)
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  // Imported, not required up front: in the bundle every module behind a dynamic import
  // initialises through esbuild's lazy wrappers, which order the SDK's zod imports correctly (a
  // static import of the SDK beside the lazily-loaded zod of our own modules does not).
  const { runMcpServer } = await import('./server.ts')
  await runMcpServer({
    env,
    cwd: process.cwd(),
    clock: systemClock,
    log: createLogger(process.stderr, logLevelOf(env.logLevel)),
    version,
    stdin: process.stdin,
    stdout: process.stdout,
    stopSignal: stop.signal,
  })
}

main().catch((error: unknown) => {
  process.stderr.write(
    `sangam mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
