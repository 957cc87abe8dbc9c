import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { runGit } from '../git/git.ts'
import { excludeFromGit } from './git-exclude.ts'

/** The project-level host files `install-hooks` writes (hooks.md), relative to a worktree. */
const hostFiles = ['.claude/settings.json', '.codex/hooks.json'] as const

/** A host file to give each lane: where it goes and what it holds. */
export interface SharedHookFile {
  readonly path: string
  readonly text: string
}

/**
 * The project-level hook files `install-hooks` wrote in the main worktree that git does not track
 * (a machine-specific path, hooks.md): a lane's worktree would start without them, so the agent
 * there runs unhooked, and an untracked file keeps the main worktree dirty, which every publish
 * refuses (`main-dirty`). So `lane` keeps each out of git on this machine (`info/exclude`, shared
 * by every worktree) and gives each lane a copy (D212). Files main tracks come with the lane.
 */
export function shareUntrackedHookFiles(input: {
  readonly root: string
  readonly commonDir: string
  readonly mainBranch: string
}): SharedHookFile[] {
  const shared: SharedHookFile[] = []
  for (const path of hostFiles) {
    const file = join(input.root, path)
    if (!existsSync(file)) continue
    const text = readFileSync(file, 'utf8')
    if (!text.includes('agent-hook-main')) continue
    const tracked =
      runGit(['ls-files', '--error-unmatch', '--', path], input.root).code === 0 ||
      runGit(['cat-file', '-e', `${input.mainBranch}:${path}`], input.root).code === 0
    if (tracked) continue
    excludeFromGit(
      input.commonDir,
      `/${path}`,
      "sangam's hooks with this machine's path, copied into each lane (sangam lane)",
    )
    shared.push({ path, text })
  }
  return shared
}

/** Writes the shared files into a lane's worktree, never over one it already has. */
export function copyHookFilesInto(worktree: string, files: readonly SharedHookFile[]): void {
  for (const { path, text } of files) {
    const file = join(worktree, path)
    if (existsSync(file)) continue
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
  }
}
