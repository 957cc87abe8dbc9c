import { readFileSync } from 'node:fs'
import { join, sep } from 'node:path'

/**
 * The project a Gemini CLI session file belongs to. Its records name no directory (only a sha256
 * `projectHash` of the project root), but the CLI keeps the root in `.project_root` beside the
 * project's `chats/` folder (`~/.gemini/tmp/<project>/.project_root`, 0.29+, where `<project>` is a
 * short name from `~/.gemini/projects.json`; before 0.29 the folder was the hash itself and held no
 * such file). Null when the file is not under a `chats/` folder or the root is not recorded.
 */
export function geminiProjectRoot(sessionFile: string): string | null {
  const parts = sessionFile.split(sep)
  const chats = parts.lastIndexOf('chats')
  if (chats < 1) return null
  const projectDir = parts.slice(0, chats).join(sep)
  try {
    const root = readFileSync(join(projectDir === '' ? sep : projectDir, '.project_root'), 'utf8').trim()
    return root === '' ? null : root
  } catch {
    return null
  }
}
