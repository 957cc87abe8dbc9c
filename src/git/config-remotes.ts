import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitLocationOverridden } from '../config/git-environment.ts'
import { gitOutputOrNull } from './git.ts'
import { findGitLayout } from './git-layout.ts'

/**
 * The repository's remotes by name, as `git remote` lists them, read from its config file where
 * that file is the whole answer: no include, no per-worktree config, no GIT_DIR and the like. Each
 * `sangam sync` asks, and a git process costs several milliseconds of start-up. A remote set only
 * in the user's global config is not seen here; sangam pushes lanes only to the repository's own.
 */
export function remoteNames(cwd: string): string[] {
  const fromFile = remoteNamesFromConfig(cwd)
  if (fromFile !== null) return fromFile
  return (gitOutputOrNull(['remote'], cwd) ?? '').split('\n').filter((line) => line !== '')
}

/** `origin`, else the first remote by name; null when the repository has none. */
export function pushRemoteName(cwd: string): string | null {
  const names = remoteNames(cwd)
  return names.includes('origin') ? 'origin' : (names[0] ?? null)
}

/** null: only git can say. */
function remoteNamesFromConfig(cwd: string): string[] | null {
  if (gitLocationOverridden()) return null
  const layout = findGitLayout(cwd)
  if (layout === null || existsSync(join(layout.gitDir, 'config.worktree'))) return null
  let text: string
  try {
    text = readFileSync(join(layout.commonDir, 'config'), 'utf8')
  } catch {
    return null
  }
  const names = new Set<string>()
  // git lists a remote once it has a key: a bare `[remote "x"]` header is not one.
  let current: string | null = null
  for (const line of text.split('\n')) {
    const header = /^\s*\[([^\]]*)\](.*)$/.exec(line)
    if (header === null) {
      if (current !== null && /^\s*[A-Za-z]/.test(line)) names.add(current)
      continue
    }
    const section = (header[1] ?? '').trim()
    const lower = section.toLowerCase()
    if (lower.startsWith('include')) return null
    current = null
    // `[remote "name"]`; the old `[remote.name]` form folds case, and a key on the header's own
    // line is rare enough to leave to git.
    const quoted = /^remote\s+"([^"\\]*)"$/i.exec(section)
    if (quoted?.[1] !== undefined && (header[2] ?? '').trim() === '') current = quoted[1]
    else if (lower.startsWith('remote')) return null
  }
  return [...names].sort()
}
