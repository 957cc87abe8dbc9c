#!/usr/bin/env node
import { fileURLToPath } from 'node:url'
import { Command, CommanderError } from 'commander'
import { readEnvironment } from '../config/environment.ts'
import { version } from '../config/version.ts'
import { systemClock } from '../shared/clock.ts'
import { createLogger, logLevelOf } from '../shared/logger.ts'
import { isSangamError } from '../shared/sangam-error.ts'
import type { CommandContext, CommandResult, CommandSpec } from './command.ts'
import { exitCodeFor } from './exit-codes.ts'
import { commands } from './registry.ts'

/**
 * The CLI's composition root: the only place that reads process globals (argv, env, streams,
 * signals) and turns them into a CommandContext, and the only place exit codes are set.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const env = readEnvironment(process.env)
  const stop = new AbortController()
  let longRunning = false
  const onSignal = (signal: NodeJS.Signals): void => {
    // A short command dies as it would without handlers; a long-running one shuts down in order.
    if (!longRunning) process.exit(signal === 'SIGINT' ? 130 : 143)
    stop.abort()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const ctx: CommandContext = {
    env,
    cwd: process.cwd(),
    clock: systemClock,
    log: createLogger(process.stderr, logLevelOf(env.logLevel)),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stopSignal: stop.signal,
    cliEntry: fileURLToPath(import.meta.url),
  }
  let exitCode = 0
  const program = buildProgram(commands, ctx, {
    setExitCode: (code) => {
      exitCode = code
    },
    onLongRunning: () => {
      longRunning = true
    },
  })
  try {
    await program.parseAsync(argv, { from: 'user' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    const json = argv.includes('--json')
    reportError(ctx, error, json)
    return exitCodeFor(error)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  return exitCode
}

export interface ProgramHooks {
  setExitCode(code: number): void
  /** Called before a long-running command starts. */
  onLongRunning(): void
}

export function buildProgram(
  specs: readonly CommandSpec[],
  ctx: CommandContext,
  hooks: ProgramHooks,
): Command {
  const program = new Command('sangam')
    .description('Shared verbatim memory and file leases for coding agents working on one Git project')
    .version(version, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
    })
  for (const spec of specs) {
    const command = program.command(spec.name).description(spec.summary).exitOverride()
    for (const arg of spec.arguments ?? []) {
      const name = `${arg.name}${arg.variadic ? '...' : ''}`
      command.argument(arg.required ? `<${name}>` : `[${name}]`, arg.description)
    }
    for (const option of spec.options ?? []) command.option(option.flags, option.description)
    if (!spec.noJson) command.option('--json', 'print the result as JSON on stdout')
    command.action(async (...params: unknown[]) => {
      const positional = params.slice(0, spec.arguments?.length ?? 0).flatMap(flattenArg)
      const options = command.opts()
      if (spec.longRunning) hooks.onLongRunning()
      const { run } = await spec.load()
      const result = await run(ctx, positional, options)
      printResult(ctx, result, options.json === true)
      hooks.setExitCode(result.exitCode ?? 0)
    })
  }
  return program
}

function flattenArg(value: unknown): string[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value.map(String) : [String(value)]
}

function printResult(ctx: CommandContext, result: CommandResult, json: boolean): void {
  // A command that streamed its output (`up --json` prints one status per line) returns no json.
  if (json) {
    if (result.json !== undefined) ctx.stdout.write(`${JSON.stringify(result.json, null, 2)}\n`)
  } else if (result.text !== '') ctx.stdout.write(`${result.text}\n`)
}

function reportError(ctx: CommandContext, error: unknown, json: boolean): void {
  const code = isSangamError(error) ? error.code : 'INTERNAL'
  const message = error instanceof Error ? error.message : String(error)
  if (json) ctx.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`)
  ctx.stderr.write(`sangam: ${message}\n`)
  if (!isSangamError(error) && error instanceof Error && error.stack) ctx.stderr.write(`${error.stack}\n`)
}

if (
  process.argv[1] &&
  fileURLToPath(import.meta.url) === (await import('node:fs')).realpathSync(process.argv[1])
) {
  process.exitCode = await main(process.argv.slice(2))
}
