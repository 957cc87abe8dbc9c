#!/usr/bin/env node
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Command, CommanderError } from 'commander'
import { readEnvironment } from '../config/environment.ts'
import { version } from '../config/version.ts'
import { systemClock } from '../shared/clock.ts'
import { createLogger, logLevelOf } from '../shared/logger.ts'
import { ErrorCode, isSangamError } from '../shared/sangam-error.ts'
import type { AnyCommandSpec, CommandContext, CommandInput, CommandResult } from './command.ts'
import { exitCodeFor, exitCodes } from './exit-codes.ts'
import { commands } from './registry.ts'
import { TerminalStream } from './terminal-stream.ts'

/**
 * The CLI's composition root: the only place that reads process globals (argv, env, streams,
 * signals) and turns them into a CommandContext, and the only place exit codes are set.
 * `cliEntry` is the file `sangam` runs: dist/cli/main.js, the launcher that imports this module
 * from its bundle (scripts/build-cli.mjs), or this file under tsx.
 */
export async function main(
  argv: readonly string[],
  cliEntry = fileURLToPath(import.meta.url),
): Promise<number> {
  const env = readEnvironment(process.env)
  const stop = new AbortController()
  let longRunning = false
  const onSignal = (signal: NodeJS.Signals): void => {
    // A short command dies as it would without handlers; a long-running one shuts down in order.
    if (!longRunning) process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143)
    stop.abort()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  // A closed terminal: `chat` still says goodbye (presence offline) before it goes.
  process.once('SIGHUP', onSignal)
  const json = argv.includes('--json')
  // Everything the CLI writes passes the terminal's guard (control characters from others' text
  // escaped, D290); text, not JSON, is also broken at spaces to the terminal's width (D297).
  const stdout = new TerminalStream(process.stdout, { wrap: !json })
  const stderr = new TerminalStream(process.stderr, { wrap: true })
  const ctx: CommandContext = {
    env,
    cwd: process.cwd(),
    clock: systemClock,
    log: createLogger(stderr, logLevelOf(env.logLevel)),
    stdin: process.stdin,
    stdout,
    stderr,
    stopSignal: stop.signal,
    cliEntry,
    laneFault: laneFault(process.env.SANGAM_LANE_FAULT),
  }
  let exitCode = 0
  const program = buildProgram(
    commands,
    ctx,
    {
      setExitCode: (code) => {
        exitCode = code
      },
      onLongRunning: () => {
        longRunning = true
      },
    },
    await loadMoreHelp(commands, argv),
  )
  try {
    await program.parseAsync(argv, { from: 'user' })
  } catch (caught) {
    if (caught instanceof CommanderError) {
      if (caught.exitCode === 0) return 0
      // commander has said it on stderr; `--json` gets it on stdout too, as every failure does.
      if (json) reportJson(ctx, ErrorCode.Usage, caught.message.replace(/^error: /, ''))
      return exitCodes[ErrorCode.Usage]
    }
    // Loaded only on a failure: --help and --version load nothing of the store.
    const { asStoreBusy } = await import('../store/busy-error.ts')
    const error = asStoreBusy(caught)
    reportError(ctx, error, json)
    return exitCodeFor(error)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.off('SIGHUP', onSignal)
  }
  return exitCode
}

export interface ProgramHooks {
  setExitCode(code: number): void
  /** Called before a long-running command starts. */
  onLongRunning(): void
}

/**
 * The commander program for `specs`. Each command's declared input is parsed here, once, before its
 * implementation loads: a refused value is a USAGE error naming the flag, and `run` receives typed
 * arguments and options. `moreHelp` holds the extra `--help` text of the commands that have one
 * (`loadMoreHelp`).
 */
export function buildProgram(
  specs: readonly AnyCommandSpec[],
  ctx: CommandContext,
  hooks: ProgramHooks,
  moreHelp: ReadonlyMap<string, string> = new Map(),
): Command {
  const program = new Command('sangam')
    .description('Shared verbatim memory and file leases for coding agents working on one Git project')
    .version(version, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      // commander's "error: unknown option '…'" echoes the argument, newlines and all (D290).
      writeErr: (text) =>
        ctx.stderr.write(bounded(text.startsWith('error: ') ? `${indentLines(text)}\n` : text)),
    })
  for (const spec of specs) {
    const command = program.command(spec.name).description(spec.summary).exitOverride()
    const input: CommandInput = spec.input ?? {}
    const argumentDecls = Object.entries(input.arguments ?? {})
    for (const [, arg] of argumentDecls) {
      const name = `${arg.name}${arg.variadic ? '...' : ''}`
      command.argument(arg.required ? `<${name}>` : `[${name}]`, arg.description)
    }
    const optionDecls = Object.entries(input.options ?? {}).map(([key, decl]) => {
      if (decl.repeatable) {
        command.option(decl.flags, decl.description, (value: string, previous: string[] = []) => [
          ...previous,
          value,
        ])
      } else command.option(decl.flags, decl.description)
      const option = command.options.at(-1)
      if (decl.negation) command.option(decl.negation.flags, decl.negation.description)
      if (option === undefined) throw new Error(`${spec.name}: no option for ${decl.flags}`)
      return { key, decl, attribute: option.attributeName(), flag: option.long ?? option.flags }
    })
    if (!spec.noJson) command.option('--json', 'print the result as JSON on stdout')
    if (spec.passThrough) command.allowUnknownOption().allowExcessArguments()
    const help = moreHelp.get(spec.name)
    if (help !== undefined) command.addHelpText('after', `\n${help}`)
    command.action(async (...params: unknown[]) => {
      const raw = command.opts()
      const args: Record<string, unknown> = {}
      argumentDecls.forEach(([key, decl], index) => {
        args[key] = decl.parse(params[index], `<${decl.name}>`)
      })
      const options: Record<string, unknown> & { json: boolean } = { json: raw.json === true }
      for (const { key, decl, attribute, flag } of optionDecls) {
        options[key] = await decl.parse(raw[attribute], flag)
      }
      if (spec.longRunning) hooks.onLongRunning()
      const { run } = await spec.load()
      const result = await run(ctx, args, options)
      printResult(ctx, result, options.json === true)
      hooks.setExitCode(result.exitCode ?? 0)
    })
  }
  return program
}

/** The extra `--help` text of the command `argv` asks help for, loaded only then (`sangam mcp --help`). */
export async function loadMoreHelp(
  specs: readonly AnyCommandSpec[],
  argv: readonly string[],
): Promise<Map<string, string>> {
  const [first, second] = argv
  const name = first === 'help' ? second : first
  const spec = specs.find((each) => each.name === name)
  const asked = first === 'help' || argv.includes('--help') || argv.includes('-h')
  if (spec?.moreHelp === undefined || !asked) return new Map()
  return new Map([[spec.name, await spec.moreHelp()]])
}

function printResult(ctx: CommandContext, result: CommandResult, json: boolean): void {
  // A command that streamed its output (`up --json` prints one status per line) returns no json.
  if (json) {
    if (result.json !== undefined) ctx.stdout.write(`${JSON.stringify(result.json, null, 2)}\n`)
  } else if (result.text !== '') ctx.stdout.write(`${result.text}\n`)
}

/**
 * The crash tests' fault injection (`SANGAM_LANE_FAULT=<step>`): the integrator kills itself with
 * SIGKILL when it reaches that step of a sync, as a power cut would. Unset, it does nothing.
 */
function laneFault(step: string | undefined): (reached: string) => void {
  if (step === undefined || step === '') return () => undefined
  return (reached) => {
    if (reached === step) process.kill(process.pid, 'SIGKILL')
  }
}

/**
 * Prints a failure: its message on stderr and, with `--json`, `{"error": {code, message}}` on
 * stdout. A bug (not a SangamError) also gets its stack trace on stderr.
 */
function reportError(ctx: CommandContext, error: unknown, json: boolean): void {
  // A lane refusal is known by its own code (integration-busy, validation-missing…).
  const code = isSangamError(error)
    ? error.code === ErrorCode.LaneRefused && error.wireCode !== null
      ? error.wireCode
      : error.code
    : 'INTERNAL'
  const message = bounded(error instanceof Error ? error.message : String(error))
  const next = isSangamError(error) ? error.next : null
  if (json) reportJson(ctx, code, message, next)
  // A message that echoes input may hold its newlines: its later lines are indented under the
  // first, so none reads as a line sangam wrote (D290).
  ctx.stderr.write(`sangam: ${indentLines(message)}\n`)
  if (next !== null) ctx.stderr.write(`next: ${indentLines(next)}\n`)
  if (!isSangamError(error) && error instanceof Error && error.stack) ctx.stderr.write(`${error.stack}\n`)
}

function indentLines(text: string): string {
  return text.trimEnd().replaceAll('\n', '\n  ')
}

function reportJson(ctx: CommandContext, code: string, message: string, next: string | null = null): void {
  const error = {
    code,
    message: bounded(message.trimEnd()),
    ...(next === null ? {} : { next: bounded(next) }),
  }
  ctx.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`)
}

/**
 * What an error message may be at most. Messages echo values through `quoteInput`, which bounds
 * them; this catches what does not (commander's own "unknown option '…'" echoes a flag whole).
 */
const maxMessageChars = 2000

function bounded(message: string): string {
  if (message.length <= maxMessageChars) return message
  return `${message.slice(0, maxMessageChars)}… (${message.length - maxMessageChars} more characters)${message.endsWith('\n') ? '\n' : ''}`
}

// Run from source (`node --import tsx src/cli/main.ts`). Built, this module is a chunk or the
// bundle, never the file node was started with: dist/cli/main.js imports it and runs main. No
// top-level await, so the module also bundles as CommonJS (D470).
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}
