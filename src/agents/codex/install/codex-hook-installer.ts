import { readdirSync, realpathSync, rmdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ourHandlerPositions } from '../../../own-files/core/hook-config.ts'
import { isOurAgentHandler } from '../../../own-files/core/our-handler.ts'
import { readJsonObject, readText, writeTextAtomically } from '../../../own-files/services/config-file.ts'
import {
  type HookFileChange,
  holdsOurHooks,
  installHookFile,
  uninstallHookFile,
} from '../../../own-files/services/hook-file.ts'
import { type CodexHookList, listCodexHooks } from './codex-app-server.ts'
import { codexGroups } from './codex-hook-groups.ts'
import { type TrustRecord, withoutTrustRecords, withTrustRecords } from './codex-trust.ts'

/**
 * Installs sangam's Codex hooks and records their trust. Codex silently skips a hook nobody
 * trusted, so installing without trusting would look like success and enforce nothing.
 *
 * Project level (`<root>/.codex/hooks.json`) is the default, but Codex ignores a project's `.codex/`
 * until the user has trusted the project (verified with codex-cli 0.171.0). Whether it loads ours is
 * asked of Codex itself; when it does not, the project file is taken back out and the hooks go to
 * the user level (`$CODEX_HOME/hooks.json`), which Codex always loads, and where they then stay
 * for every project (a project copy would run each hook twice). The report says which and why.
 */
export interface CodexInstallOptions {
  readonly root: string
  readonly codexHome: string
  readonly entry: string
  readonly level: 'project' | 'user'
  readonly codexBin: string
  readonly timeoutMs: number
}

export interface CodexInstallReport extends HookFileChange {
  readonly level: 'project' | 'user'
  /** Why the hooks are not where they were asked to be, if they are not. */
  readonly levelNote: string | null
  readonly trust: CodexTrustReport
}

export interface CodexUninstallReport extends HookFileChange {
  /** Trust records of ours taken out of config.toml. */
  readonly trustRemoved: readonly string[]
}

export interface CodexTrustReport {
  readonly configFile: string
  /** `trusted`: Codex reports every hook of ours trusted; `unknown`: Codex could not be asked. */
  readonly status: 'trusted' | 'untrusted' | 'unknown'
  /** Keys whose trust record was written or rewritten now. */
  readonly recorded: readonly string[]
  readonly note: string | null
}

export async function installCodexHooks(options: CodexInstallOptions): Promise<CodexInstallReport> {
  const configFile = join(options.codexHome, 'config.toml')
  if (options.level === 'user') return installAt(options, userFile(options), 'user', null, configFile)
  const projectFile = join(options.root, '.codex', 'hooks.json')
  if (holdsOurHooks(userFile(options))) {
    // User-level hooks run in every project; a project copy would only make each hook run twice.
    uninstallCodexHooks(projectFile, options.codexHome)
    const note = `sangam's Codex hooks are installed for your user (${userFile(options)}), which covers this project too`
    return installAt(options, userFile(options), 'user', note, configFile)
  }
  const createdDir = !exists(dirname(projectFile))
  const file = installHookFile(projectFile, codexGroups(options.entry))
  const listed = await listCodexHooks({
    codexBin: options.codexBin,
    cwds: [options.root],
    timeoutMs: options.timeoutMs,
  })
  if (!listed.ok) {
    return { ...file, level: 'project', levelNote: null, trust: unknownTrust(configFile, listed.reason) }
  }
  if (listed.hooks.some((hook) => isOurs(hook.command) && samePath(hook.sourcePath, projectFile))) {
    return { ...file, level: 'project', levelNote: null, trust: await trust(options, configFile, listed) }
  }
  uninstallHookFile(projectFile)
  if (createdDir) removeIfEmpty(dirname(projectFile))
  const note = `Codex does not load ${projectFile} because it does not trust the project ${options.root}; the hooks were installed for your user instead`
  return installAt(options, userFile(options), 'user', note, configFile)
}

export function uninstallCodexHooks(file: string, codexHome: string): CodexUninstallReport {
  const keys = ourTrustKeys(file)
  const change = uninstallHookFile(file)
  const configFile = join(codexHome, 'config.toml')
  const text = readText(configFile)
  if (text === null || keys.length === 0) return { ...change, trustRemoved: [] }
  const edit = withoutTrustRecords(text, keys, configFile)
  if (edit.changed.length > 0) writeTextAtomically(configFile, edit.text, 0o600)
  return { ...change, trustRemoved: [...edit.changed] }
}

export function userFile(options: { readonly codexHome: string }): string {
  return join(options.codexHome, 'hooks.json')
}

async function installAt(
  options: CodexInstallOptions,
  file: string,
  level: 'project' | 'user',
  levelNote: string | null,
  configFile: string,
): Promise<CodexInstallReport> {
  const change = installHookFile(file, codexGroups(options.entry))
  return { ...change, level, levelNote, trust: await trust(options, configFile) }
}

/**
 * Records Codex's trust for the hooks of ours it lists in worktree `root`: a lane's copy of the
 * project's `.codex/hooks.json` has trust keys of its own (they name the lane's file), and Codex
 * silently skips a hook nobody trusted (D313).
 */
export function trustCodexHooksIn(
  options: Pick<CodexInstallOptions, 'root' | 'codexHome' | 'codexBin' | 'timeoutMs'>,
): Promise<CodexTrustReport> {
  return trust(options, join(options.codexHome, 'config.toml'))
}

/** Records trust for every hook of ours Codex does not yet trust, then asks again to confirm. */
async function trust(
  options: Pick<CodexInstallOptions, 'root' | 'codexBin' | 'timeoutMs'>,
  configFile: string,
  listed?: CodexHookList,
): Promise<CodexTrustReport> {
  const ask = () =>
    listCodexHooks({ codexBin: options.codexBin, cwds: [options.root], timeoutMs: options.timeoutMs })
  const before = listed ?? (await ask())
  if (!before.ok) return unknownTrust(configFile, before.reason)
  const records: TrustRecord[] = before.hooks
    .filter(
      (hook) => isOurs(hook.command) && hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed',
    )
    .map((hook) => ({ key: hook.key, hash: hook.currentHash }))
  if (records.length > 0) {
    const edit = withTrustRecords(readText(configFile) ?? '', records, configFile)
    writeTextAtomically(configFile, edit.text, 0o600)
  }
  const after = records.length > 0 ? await ask() : before
  if (!after.ok) return unknownTrust(configFile, after.reason)
  const ours = after.hooks.filter((hook) => isOurs(hook.command))
  const untrusted = ours.filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed')
  return {
    configFile,
    status: ours.length > 0 && untrusted.length === 0 ? 'trusted' : 'untrusted',
    recorded: records.map((record) => record.key),
    note:
      ours.length === 0
        ? 'Codex does not list the hooks sangam installed'
        : untrusted.length > 0
          ? `Codex still reports ${untrusted.map((hook) => `${hook.key} ${hook.trustStatus}`).join(', ')}`
          : null,
  }
}

/** The trust keys Codex derives for our handlers in `file`: `<file>:<event_snake_case>:<group>:<handler>`. */
function ourTrustKeys(file: string): string[] {
  const positions = ourHandlerPositions(readJsonObject(file), isOurAgentHandler, file)
  const path = exists(file) ? realpathSync(file) : file
  return positions.map(
    (position) => `${path}:${snakeCase(position.event)}:${position.groupIndex}:${position.handlerIndex}`,
  )
}

function snakeCase(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()
}

function isOurs(command: string): boolean {
  return isOurAgentHandler({ command })
}

function unknownTrust(configFile: string, reason: string): CodexTrustReport {
  return { configFile, status: 'unknown', recorded: [], note: `could not ask Codex: ${reason}` }
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b)
  } catch {
    return a === b
  }
}

function exists(path: string): boolean {
  try {
    realpathSync(path)
    return true
  } catch {
    return false
  }
}

function removeIfEmpty(dir: string): void {
  if (exists(dir) && readdirSync(dir).length === 0) rmdirSync(dir)
}
