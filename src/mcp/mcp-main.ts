#!/usr/bin/env node
import { readEnvironment } from '../config/environment.ts'
import { version } from '../config/version.ts'
import { systemClock } from '../shared/clock.ts'
import { createLogger, logLevelOf } from '../shared/logger.ts'

/**
 * What the agent CLIs (Claude Code, Codex, Gemini CLI, opencode) run for sangam's MCP server: `node mcp-main.cjs` (install/
 * mcp-registration.ts). An agent CLI waits for `initialize` before its first model request, so
 * this entry is built like the hooks (scripts/build-bundles.mjs): one CommonJS bundle compiled
 * through V8's code cache, instead of the CLI's ES modules and commander; it answers `initialize`
 * and `tools/list` from the listing recorded at build time and loads the server itself, another
 * such bundle, at the first tool call (lazy-server.ts). `sangam mcp` runs the same server through
 * the CLI, for a person trying it by hand.
 *
 * This is the MCP server's composition root: the only place it reads process globals.
 */
async function main(): Promise<void> {
  const env = readEnvironment(process.env)
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  // Imported, not required up front: in the bundle the server (server.ts, with the SDK) is a file
  // of its own that serveMcp requires at the first tool call (scripts/build-bundles.mjs).
  const { readListing, serveMcp } = await import('./lazy-server.ts')
  await serveMcp({
    listing: readListing(version),
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
