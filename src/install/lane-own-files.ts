import { existsSync } from 'node:fs'
import { join, sep } from 'node:path'
import { type CodexTrustReport, trustCodexHooksIn } from '../agents/codex/install/codex-hook-installer.ts'
import { findGitLayout, worktreeRoots } from '../git/git-layout.ts'
import { type EntriesKind, splitEntries, withOurEntriesOf } from '../own-files/core/our-entries.ts'
import { jsonObjectOf } from '../own-files/core/own-file.ts'
import { readText, writeJsonObject, writeTextAtomically } from '../own-files/services/config-file.ts'
import { isTracked, keepOwnFileOutOfGit, type OwnFileInGit } from './own-file-git.ts'

/**
 * sangam's files a lane's agent needs to use sangam, relative to a worktree: the hooks
 * (`install-hooks`) and the MCP registrations (`init`) of Claude Code, Codex, Gemini CLI and
 * opencode (its `opencode.json`; its plugin is given apart, opencode-plugin.ts). Codex's MCP
 * registration is its user's `config.toml`, which every lane shares already.
 */
export const laneOwnFiles: readonly { readonly path: string; readonly kind: EntriesKind }[] = [
  { path: '.claude/settings.json', kind: 'hooks' },
  { path: '.codex/hooks.json', kind: 'hooks' },
  { path: '.mcp.json', kind: 'mcp' },
  { path: '.gemini/settings.json', kind: 'settings' },
  { path: 'opencode.json', kind: 'opencode-config' },
]

/** One of the main worktree's files of sangam's that lanes get. */
export interface SharedOwnFile {
  readonly path: string
  readonly kind: EntriesKind
  readonly text: string
  readonly config: Record<string, unknown>
  readonly git: OwnFileInGit
}

/** What giving a file to a lane did. */
export interface LaneFileChange {
  readonly path: string
  /**
   * added: the lane had none. updated: sangam's entries in the lane's copy were brought in line
   * (the user's own kept). unchanged: they were. tracked: the lane's branch tracks it, so git
   * decides what the lane has. unreadable: the lane's copy is not JSON sangam can merge into; it
   * was left as it was.
   */
  readonly change: 'added' | 'updated' | 'unchanged' | 'tracked' | 'unreadable'
}

/**
 * The main worktree's files of sangam's that git does not track and that hold our entries: each
 * lane gets them, since its worktree starts without them (D212, D313). One naming this machine's
 * path is kept out of git (`info/exclude`, shared by every worktree), so it never makes a worktree
 * dirty nor is committed; a tracked one comes with the lane from git.
 */
export function sharedOwnFiles(root: string, commonDir: string): SharedOwnFile[] {
  return laneOwnFiles.flatMap(({ path, kind }) => {
    const text = readText(join(root, path))
    const config = text === null ? null : jsonObjectOf(text)
    const split = config === null ? null : splitEntries(kind, config)
    if (text === null || config === null || split === null || split.ours.length === 0) return []
    const git = keepOwnFileOutOfGit({
      root,
      commonDir,
      path,
      kind,
      why: "sangam's entries with this machine's path, given to each lane too (sangam lane)",
    })
    if (git === null || git.git === 'tracked') return []
    return [{ path, kind, text, config, git }]
  })
}

/**
 * Brings a lane's copies in line with the main worktree's `files`: a missing one is copied; an
 * untracked one present gets sangam's entries replaced by main's, the user's own entries kept
 * (a lane made before `install-hooks` or `init` ran, or after sangam moved); a tracked one is git's.
 */
export function giveOwnFiles(worktree: string, files: readonly SharedOwnFile[]): LaneFileChange[] {
  return files.map(({ path, kind, text, config }): LaneFileChange => {
    const file = join(worktree, path)
    const present = readText(file)
    if (present === null) {
      if (isTracked(worktree, path)) return { path, change: 'tracked' }
      writeTextAtomically(file, text)
      return { path, change: 'added' }
    }
    if (isTracked(worktree, path)) return { path, change: 'tracked' }
    const current = jsonObjectOf(present)
    const merged = current === null ? null : withOurEntriesOf(kind, current, config)
    if (current === null || merged === null) return { path, change: 'unreadable' }
    if (JSON.stringify(merged) === JSON.stringify(current)) return { path, change: 'unchanged' }
    writeJsonObject(file, merged)
    return { path, change: 'updated' }
  })
}

/** Where Codex is and how long to wait for it, for recording a lane's hook trust. */
export interface CodexAccess {
  readonly codexHome: string
  readonly codexBin: string
  readonly timeoutMs: number
}

/** What a lane was given, and Codex's trust in its copy of the Codex hooks (null: it has none). */
export interface EquippedLane {
  readonly worktree: string
  readonly files: readonly LaneFileChange[]
  readonly codexTrust: CodexTrustReport | null
}

/**
 * `giveOwnFiles`, then Codex's trust for the lane's own copy of `.codex/hooks.json` (its trust
 * keys name the lane's file, so main's trust does not cover it).
 */
export async function equipLane(
  worktree: string,
  files: readonly SharedOwnFile[],
  codex: CodexAccess,
): Promise<EquippedLane> {
  const given = giveOwnFiles(worktree, files)
  const codexFile = given.find((file) => file.path === '.codex/hooks.json')
  const codexTrust =
    codexFile === undefined || codexFile.change === 'tracked' || codexFile.change === 'unreadable'
      ? null
      : await trustCodexHooksIn({ root: worktree, ...codex })
  return { worktree, files: given, codexTrust }
}

/**
 * The files whose sangam entries the main worktree has but lane `worktree` lacks because git
 * tracks the file: the lane has the committed version, and sangam leaves a tracked file to git.
 */
export function entriesLaneLacks(root: string, worktree: string): string[] {
  return laneOwnFiles.flatMap(({ path, kind }) => {
    if (!holdsOurs(kind, readText(join(root, path))) || !isTracked(root, path)) return []
    return holdsOurs(kind, readText(join(worktree, path))) ? [] : [path]
  })
}

function holdsOurs(kind: EntriesKind, text: string | null): boolean {
  const config = text === null ? null : jsonObjectOf(text)
  if (config === null) return false
  return (splitEntries(kind, config)?.ours.length ?? 0) > 0
}

/** The lanes' worktrees of the repository whose main worktree is `root` (`<root>/.sangam/lanes/*`, D200). */
export function laneWorktrees(root: string): string[] {
  const layout = findGitLayout(root)
  if (layout === null) return []
  const prefix = join(root, '.sangam', 'lanes') + sep
  return worktreeRoots(layout).filter((path) => path.startsWith(prefix) && existsSync(path))
}

/** Whether `root` is its repository's main worktree (where lanes live), not a lane or another worktree. */
export function isMainWorktree(root: string): boolean {
  const layout = findGitLayout(root)
  return layout !== null && worktreeRoots(layout)[0] === root
}
