import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { claudeGroups, claudeProjectEntry } from '../agents/claude/install/claude-hook-groups.ts'
import {
  type CodexInstallReport,
  type CodexUninstallReport,
  userFile as codexUserFile,
  installCodexHooks,
  uninstallCodexHooks,
} from '../agents/codex/install/codex-hook-installer.ts'
import { geminiGroups } from '../agents/gemini/install/gemini-hook-groups.ts'
import {
  holdsOurPlugin,
  installOpencodePlugin,
  type OpencodePluginChange,
  opencodePluginFile,
  uninstallOpencodePlugin,
  usesOpencode,
} from '../agents/opencode/install/opencode-plugin.ts'
import { gitHooksDir } from '../git/hooks-dir.ts'
import { readMainGuard } from '../lanes/services/main-guard-file.ts'
import type { EntriesKind } from '../own-files/core/our-entries.ts'
import type { HookEntries } from '../own-files/services/hook-entries.ts'
import {
  type HookFileChange,
  holdsOurHooks,
  installHookFile,
  uninstallHookFile,
} from '../own-files/services/hook-file.ts'
import { systemRandom } from '../shared/random.ts'
import { excludeFromGit } from './git-exclude.ts'
import {
  type CodexAccess,
  type EquippedLane,
  equipLane,
  isMainWorktree,
  laneWorktrees,
  sharedOwnFiles,
} from './lane-own-files.ts'
import { installMainGuard, type MainGuardReport, uninstallMainGuard } from './main-guard-installer.ts'
import { isTracked, keepOwnFileOutOfGit, type OwnFileInGit } from './own-file-git.ts'
import { installPrePush, type PrePushChange, uninstallPrePush } from './pre-push-installer.ts'

/**
 * `sangam install-hooks`: the Claude Code hooks, the Codex hooks (with their trust) and the git
 * pre-push gate, each merged into what the user already has. Running it again changes nothing;
 * running it after sangam moved rewrites our entries in place.
 */
export interface HookInstallOptions {
  /** Top level of the worktree install-hooks runs in. */
  readonly root: string
  /** The repository's common git dir, where the main guard is armed. */
  readonly commonDir: string
  readonly claudeConfigDir: string
  readonly codexHome: string
  /** Gemini CLI's `~/.gemini`, where its user-level settings.json lives. */
  readonly geminiDir: string
  /** opencode's user config directory (`$XDG_CONFIG_HOME/opencode`), for `--user`. */
  readonly opencodeConfigDir: string
  readonly entries: HookEntries
  /** User-level host configuration instead of the project's, where the host has both. */
  readonly user: boolean
  readonly codexBin: string
  readonly codexTimeoutMs: number
}

export interface HookInstallReport {
  readonly claude: HookFileChange & { readonly level: 'project' | 'user' }
  readonly codex: CodexInstallReport
  readonly gemini: HookFileChange & { readonly level: 'project' | 'user' }
  /** opencode's plugin, which refuses a leased edit (agents/opencode/install/opencode-plugin.ts). */
  readonly opencode: OpencodePluginChange & { readonly level: 'project' | 'user' }
  readonly git: PrePushChange
  /** The main guard, refreshed when this repository is armed (`init --guard`, `lane`); else null. */
  readonly guard: MainGuardReport | null
  /** The project-level host files holding our hooks and how git sees them (D312); none with --user. */
  readonly files: readonly OwnFileInGit[]
  /** The lanes of this main worktree, given the hooks too (D313); none elsewhere or with --user. */
  readonly lanes: readonly EquippedLane[]
}

export interface HookUninstallReport {
  readonly claude: HookFileChange
  readonly codex: CodexUninstallReport
  readonly gemini: HookFileChange
  readonly opencode: OpencodePluginChange
  readonly git: PrePushChange
  /** The main guard's hooks, taken out with the pre-push gate, and the repository disarmed. */
  readonly guard: MainGuardReport
  /** Hooks of ours left at the other level, which this uninstall was not asked to touch. */
  readonly remaining: readonly string[]
  /** The lanes' copies of the project-level hook files, ours taken out of them too. */
  readonly lanes: readonly { readonly worktree: string; readonly files: readonly HookFileChange[] }[]
}

export async function installHooks(options: HookInstallOptions): Promise<HookInstallReport> {
  const claudeFile = claudeSettingsFile(options, options.user)
  const claudeEntry = options.user
    ? options.entries.agentHook
    : claudeProjectEntry(options.entries, options.root)
  const claude = installHookFile(claudeFile, claudeGroups(claudeEntry))
  const codex = await installCodexHooks({
    root: options.root,
    codexHome: options.codexHome,
    entry: options.entries.agentHook,
    level: options.user ? 'user' : 'project',
    codexBin: options.codexBin,
    timeoutMs: options.codexTimeoutMs,
  })
  const gemini = installHookFile(
    geminiSettingsFile(options, options.user),
    geminiGroups(options.entries.agentHook),
  )
  // Only where opencode is in use (D464): elsewhere the plugin would be a stray file in the project.
  const pluginFile = opencodeFile(options, options.user)
  const opencode = (options.user ? existsSync(options.opencodeConfigDir) : usesOpencode(options.root))
    ? installOpencodePlugin(pluginFile, options.entries.agentHook)
    : { file: pluginFile, change: 'absent' as const }
  const git = installPrePush(gitHooksDir(options.root), options.entries.prePush)
  const armed = readMainGuard(options.commonDir)
  const guard =
    armed === null
      ? null
      : installMainGuard({
          root: options.root,
          commonDir: options.commonDir,
          mainBranch: armed.mainBranch,
          prePushEntry: options.entries.prePush,
          random: systemRandom,
        })
  const project = !options.user
  const plugin = opencode.change === 'absent' ? null : opencode.file
  const files = project ? projectFilesInGit(options, codex.level === 'project', plugin) : []
  const lanes: EquippedLane[] = []
  if (project && isMainWorktree(options.root)) {
    const shared = sharedOwnFiles(options.root, options.commonDir)
    for (const lane of laneWorktrees(options.root))
      lanes.push(await equipLane(lane, shared, codexAccess(options)))
  }
  const level = options.user ? 'user' : 'project'
  return {
    claude: { ...claude, level },
    codex,
    gemini: { ...gemini, level },
    opencode: { ...opencode, level },
    git,
    guard,
    files,
    lanes,
  }
}

/** The project-level hook files kept out of git where they name this machine's paths (D312). */
function projectFilesInGit(
  options: HookInstallOptions,
  codexInProject: boolean,
  opencodePlugin: string | null,
): OwnFileInGit[] {
  const paths: [string, EntriesKind][] = [
    ['.claude/settings.json', 'hooks'],
    ...(codexInProject ? [['.codex/hooks.json', 'hooks'] as [string, EntriesKind]] : []),
    ['.gemini/settings.json', 'settings'],
  ]
  const files = ownFilesInGit(options, paths)
  if (opencodePlugin === null) return files
  const plugin = opencodePlugin.slice(options.root.length + 1)
  // The plugin is sangam's alone and names this machine's hook: out of git unless git tracks it.
  const opencode: OwnFileInGit = isTracked(options.root, plugin)
    ? { path: plugin, git: 'tracked', machinePath: true, excludedIn: null }
    : {
        path: plugin,
        git: 'excluded',
        machinePath: true,
        excludedIn: excludeFromGit(
          options.commonDir,
          `/${plugin}`,
          "sangam's opencode plugin with this machine's path (sangam install-hooks)",
        ),
      }
  return [...files, opencode]
}

function ownFilesInGit(options: HookInstallOptions, paths: readonly [string, EntriesKind][]): OwnFileInGit[] {
  return paths.flatMap(([path, kind]) => {
    const found = keepOwnFileOutOfGit({
      root: options.root,
      commonDir: options.commonDir,
      path,
      kind,
      why: "sangam's hooks with this machine's path (sangam install-hooks)",
    })
    return found === null ? [] : [found]
  })
}

function codexAccess(options: HookInstallOptions): CodexAccess {
  return { codexHome: options.codexHome, codexBin: options.codexBin, timeoutMs: options.codexTimeoutMs }
}

export function uninstallHooks(options: HookInstallOptions): HookUninstallReport {
  const claude = uninstallHookFile(claudeSettingsFile(options, options.user))
  const codex = uninstallCodexHooks(codexFile(options, options.user), options.codexHome)
  const gemini = uninstallHookFile(geminiSettingsFile(options, options.user))
  const opencode = uninstallOpencodePlugin(opencodeFile(options, options.user))
  const git = uninstallPrePush(gitHooksDir(options.root))
  const guard = uninstallMainGuard(options.root, options.commonDir)
  const others = [
    claudeSettingsFile(options, !options.user),
    codexFile(options, !options.user),
    geminiSettingsFile(options, !options.user),
  ]
  const otherPlugin = opencodeFile(options, !options.user)
  // The lanes' copies go too, or their agents would run hooks of a sangam taken out (D313).
  const lanes =
    options.user || !isMainWorktree(options.root)
      ? []
      : laneWorktrees(options.root).map((worktree) => ({
          worktree,
          files: [
            ...untrackedIn(worktree, '.claude/settings.json', uninstallHookFile),
            ...untrackedIn(worktree, '.codex/hooks.json', (file) =>
              uninstallCodexHooks(file, options.codexHome),
            ),
            ...untrackedIn(worktree, '.gemini/settings.json', uninstallHookFile),
          ],
        }))
  return {
    claude,
    codex,
    gemini,
    opencode,
    git,
    guard,
    remaining: [
      ...others.filter((file) => holdsOurHooks(file)),
      ...(holdsOurPlugin(otherPlugin) ? [otherPlugin] : []),
    ],
    lanes,
  }
}

/** `uninstall` on a lane's copy of `path`, unless git tracks it there (then it is git's). */
function untrackedIn(
  worktree: string,
  path: string,
  uninstall: (file: string) => HookFileChange,
): HookFileChange[] {
  if (isTracked(worktree, path)) return []
  const { file, change } = uninstall(join(worktree, path))
  return [{ file, change }]
}

function claudeSettingsFile(options: HookInstallOptions, user: boolean): string {
  return user
    ? join(options.claudeConfigDir, 'settings.json')
    : join(options.root, '.claude', 'settings.json')
}

function codexFile(options: HookInstallOptions, user: boolean): string {
  return user ? codexUserFile(options) : join(options.root, '.codex', 'hooks.json')
}

/** Gemini CLI reads hooks from the project's `.gemini/settings.json` and the user's. */
function geminiSettingsFile(options: HookInstallOptions, user: boolean): string {
  return user ? join(options.geminiDir, 'settings.json') : join(options.root, '.gemini', 'settings.json')
}

function opencodeFile(options: HookInstallOptions, user: boolean): string {
  return opencodePluginFile(user ? options.opencodeConfigDir : join(options.root, '.opencode'))
}
