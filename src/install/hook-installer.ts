import { join } from 'node:path'
import { gitHooksDir } from '../git/hooks-dir.ts'
import { readMainGuard } from '../services/lanes/main-guard-file.ts'
import { systemRandom } from '../shared/random.ts'
import {
  type CodexInstallReport,
  type CodexUninstallReport,
  userFile as codexUserFile,
  installCodexHooks,
  uninstallCodexHooks,
} from './codex-hook-installer.ts'
import { claudeGroups, claudeProjectEntry, type HookEntries } from './hook-entries.ts'
import { type HookFileChange, holdsOurHooks, installHookFile, uninstallHookFile } from './hook-file.ts'
import { installMainGuard, type MainGuardReport, uninstallMainGuard } from './main-guard-installer.ts'
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
  readonly entries: HookEntries
  /** User-level host configuration instead of the project's, where the host has both. */
  readonly user: boolean
  readonly codexBin: string
  readonly codexTimeoutMs: number
}

export interface HookInstallReport {
  readonly claude: HookFileChange & { readonly level: 'project' | 'user' }
  readonly codex: CodexInstallReport
  readonly git: PrePushChange
  /** The main guard, refreshed when this repository is armed (`init --guard`, `lane`); else null. */
  readonly guard: MainGuardReport | null
}

export interface HookUninstallReport {
  readonly claude: HookFileChange
  readonly codex: CodexUninstallReport
  readonly git: PrePushChange
  /** The main guard's hooks, taken out with the pre-push gate, and the repository disarmed. */
  readonly guard: MainGuardReport
  /** Hooks of ours left at the other level, which this uninstall was not asked to touch. */
  readonly remaining: readonly string[]
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
  return { claude: { ...claude, level: options.user ? 'user' : 'project' }, codex, git, guard }
}

export function uninstallHooks(options: HookInstallOptions): HookUninstallReport {
  const claude = uninstallHookFile(claudeSettingsFile(options, options.user))
  const codex = uninstallCodexHooks(codexFile(options, options.user), options.codexHome)
  const git = uninstallPrePush(gitHooksDir(options.root))
  const guard = uninstallMainGuard(options.root, options.commonDir)
  const others = [claudeSettingsFile(options, !options.user), codexFile(options, !options.user)]
  return {
    claude,
    codex,
    git,
    guard,
    remaining: others.filter((file) => holdsOurHooks(file)),
  }
}

function claudeSettingsFile(options: HookInstallOptions, user: boolean): string {
  return user
    ? join(options.claudeConfigDir, 'settings.json')
    : join(options.root, '.claude', 'settings.json')
}

function codexFile(options: HookInstallOptions, user: boolean): string {
  return user ? codexUserFile(options) : join(options.root, '.codex', 'hooks.json')
}
