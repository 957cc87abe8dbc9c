import { join } from 'node:path'
import { readText, writeTextAtomically } from '../own-files/services/config-file.ts'

/**
 * Keeps `pattern` (e.g. `/.mcp.json`) out of git on this machine only, in the repository's
 * `info/exclude` (shared by its worktrees; never the team's `.gitignore`). Idempotent; returns the
 * file written or found to hold the pattern already.
 */
export function excludeFromGit(
  commonDir: string,
  pattern: string,
  why = "names this machine's path to sangam (sangam init)",
): string {
  const file = join(commonDir, 'info', 'exclude')
  const text = readText(file) ?? ''
  if (text.split('\n').some((line) => line.trim() === pattern)) return file
  const separator = text === '' || text.endsWith('\n') ? '' : '\n'
  writeTextAtomically(file, `${text}${separator}# sangam: ${why}\n${pattern}\n`)
  return file
}
