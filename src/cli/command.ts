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
}

export interface ArgumentSpec {
  readonly name: string
  readonly description: string
  readonly required?: boolean | undefined
  readonly variadic?: boolean | undefined
}

export interface OptionSpec {
  /** commander flags, e.g. `--since <date|Nd>` or `--force`. */
  readonly flags: string
  readonly description: string
}

/** What a command returns; main.ts prints `json` for `--json` and `text` otherwise. */
export interface CommandResult {
  readonly json: unknown
  readonly text: string
  /** Non-zero for an expected "no" (a claim not granted); failures throw SangamError instead. */
  readonly exitCode?: number | undefined
}

/** What a command does, given its parsed arguments and options. */
export type CommandRun = (
  ctx: CommandContext,
  args: readonly string[],
  options: Record<string, unknown>,
) => Promise<CommandResult>

/**
 * One CLI command: data for commander and `--help`, plus where its implementation lives.
 * `summary` is the line shown in `--help` and in the table of `docs/cli.md`; a test keeps that
 * table equal to the registry.
 */
export interface CommandSpec {
  readonly name: string
  readonly summary: string
  readonly arguments?: readonly ArgumentSpec[] | undefined
  readonly options?: readonly OptionSpec[] | undefined
  /** Runs until stopped (`up`, `mcp`, `serve`): SIGINT/SIGTERM abort `stopSignal` instead of exiting. */
  readonly longRunning?: boolean | undefined
  /** Commands that manage their own output stream (`mcp`) skip the `--json` flag. */
  readonly noJson?: boolean | undefined
  /**
   * Imports the command's implementation (`commands/<name>.ts`). It loads only when the command
   * runs: every `sangam` process would otherwise load the whole program (0.6 s of CPU) first.
   */
  load(): Promise<{ readonly run: CommandRun }>
}
