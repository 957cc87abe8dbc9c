import type { Environment } from '../config/environment.ts'
import type { Clock } from '../shared/clock.ts'
import type { Logger } from '../shared/logger.ts'

/** The world a command runs in; injected so commands run the same in tests as from a shell. */
export interface CommandContext {
  readonly env: Environment
  readonly cwd: string
  readonly clock: Clock
  readonly log: Logger
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean | undefined }
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean | undefined }
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean | undefined }
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands await it. */
  readonly stopSignal: AbortSignal
  /** Absolute path of the sangam CLI entry (dist/cli/main.js), for commands that register us elsewhere. */
  readonly cliEntry: string
  /** Called at each step of a lane integration; the crash tests make it kill the process there. */
  readonly laneFault?: ((step: string) => void) | undefined
}

/**
 * One option of a command: commander's flags and help line, and how what commander collected
 * becomes the typed value the command's `run` receives. `parse` gets `undefined` when the option
 * is absent (or commander's default: `true` for a lone `--no-x`), and throws a USAGE SangamError
 * that names `flag` when the value is refused. Built with the helpers in `command-input.ts`.
 */
export interface OptionDecl<T> {
  /** commander flags, e.g. `--since <date|Nd>` or `--force`. */
  readonly flags: string
  readonly description: string
  /** The `--no-x` twin of a `--x` switch, listed in `--help` beside it. */
  readonly negation?: { readonly flags: string; readonly description: string } | undefined
  parse(raw: unknown, flag: string): T | Promise<T>
  /** The option may be given more than once (`--to @a --to @b`); `parse` gets every value in order. */
  readonly repeatable?: boolean | undefined
}

/** One positional argument: its name in `--help`, and how commander's value becomes a typed one. */
export interface ArgumentDecl<T> {
  readonly name: string
  readonly description: string
  readonly required: boolean
  readonly variadic: boolean
  parse(raw: unknown, name: string): T
}

/** A command's declared input: its arguments (in order) and options, each keyed as `run` reads it. */
export interface CommandInput {
  // biome-ignore lint/suspicious/noExplicitAny: each declaration's own type is kept by inference
  readonly arguments?: Readonly<Record<string, ArgumentDecl<any>>> | undefined
  // biome-ignore lint/suspicious/noExplicitAny: each declaration's own type is kept by inference
  readonly options?: Readonly<Record<string, OptionDecl<any>>> | undefined
}

/** What `run` receives as arguments: each declared argument, parsed. */
export type ParsedArguments<I extends CommandInput> = {
  readonly [K in keyof I['arguments']]: I['arguments'][K] extends ArgumentDecl<infer T> ? T : never
}

/** What `run` receives as options: each declared option, parsed, and whether `--json` was given. */
export type ParsedOptions<I extends CommandInput> = {
  readonly [K in keyof I['options']]: I['options'][K] extends OptionDecl<infer T> ? T : never
} & { readonly json: boolean }

/** What a command returns; main.ts prints `json` for `--json` and `text` otherwise. */
export interface CommandResult {
  readonly json: unknown
  readonly text: string
  /** Non-zero for an expected "no" (a claim not granted); failures throw SangamError instead. */
  readonly exitCode?: number | undefined
}

/**
 * What a command does, given its arguments and options as its declared input parsed them. A
 * command module exports `run: CommandRun<typeof xInput>`, with `xInput` from the registry.
 */
export type CommandRun<I extends CommandInput = CommandInput> = (
  ctx: CommandContext,
  args: ParsedArguments<I>,
  options: ParsedOptions<I>,
) => Promise<CommandResult>

/**
 * One CLI command: data for commander and `--help`, its declared input, and where its
 * implementation lives. `summary` is the line shown in `--help` and in the table of
 * `docs/cli.md`; a test keeps that table equal to the registry.
 */
export interface CommandSpec<I extends CommandInput = CommandInput> {
  readonly name: string
  readonly summary: string
  /** Arguments and options, parsed once in main.ts before the implementation loads. */
  readonly input?: I | undefined
  /** Runs until stopped (`up`, `mcp`, `serve`): SIGINT/SIGTERM abort `stopSignal` instead of exiting. */
  readonly longRunning?: boolean | undefined
  /** Commands that manage their own output stream (`mcp`) skip the `--json` flag. */
  readonly noJson?: boolean | undefined
  /**
   * More `--help` text, after the options, that needs the program to say (`mcp` lists the tools of
   * the real tool registry). Loaded only for that command's `--help`.
   */
  readonly moreHelp?: (() => Promise<string>) | undefined
  /**
   * Imports the command's implementation (`commands/<feature>/<name>.ts`). It loads only when the
   * command runs: every `sangam` process would otherwise load the whole program (0.6 s of CPU) first.
   */
  load(): Promise<{ readonly run: CommandRun<I> }>
}

/** A registry entry of any input; `defineCommand` checks each against its own. */
// biome-ignore lint/suspicious/noExplicitAny: a list of commands with different inputs
export type AnyCommandSpec = CommandSpec<any>

/**
 * How long a command that only reads (`search`, `thread`, `brief`, `who-has`, `connection`) waits
 * for a database another process holds locked before it answers STORE_BUSY (exit 8): a person or
 * an agent asking a question should hear "busy, try again" in seconds, not wait out the writer.
 */
export const readBusyBudgetMs = 2000
