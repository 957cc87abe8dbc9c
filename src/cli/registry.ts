import type { CommandSpec } from './command.ts'
import { initCommand } from './commands/init.ts'

/**
 * Every CLI command, in the order `--help` lists them. docs/cli.md has a table with one row per
 * entry here, kept equal by test/cli-docs.test.ts.
 */
export const commands: readonly CommandSpec[] = [initCommand]
