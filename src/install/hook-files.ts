import { join } from 'node:path'
import {
  opencodePluginFile,
  opencodePluginSource,
  ourPlugin,
} from '../agents/opencode/install/opencode-plugin.ts'
import { gitHooksDir } from '../git/hooks-dir.ts'
import { addOurGroups, type HookGroup, ourHandlerPositions } from '../own-files/core/hook-config.ts'
import { isOurAgentHandler } from '../own-files/core/our-handler.ts'
import { readJsonObject } from '../own-files/services/config-file.ts'
import { agentEvents, type HookHealth, type HookHealthInput } from './hook-health.ts'
import { isOurPrePush } from './pre-push-installer.ts'

/** A host configuration file and the groups a current install puts in it (null: unknown). */
export interface HookFile {
  readonly file: string
  readonly groups: Readonly<Record<string, HookGroup>> | null
}

/** The files of `files` that install `event`, and those of them whose entry is not current. */
export function installedIn(
  files: readonly HookFile[],
  event: string,
): Pick<HookHealth, 'installedIn' | 'outdatedIn'> {
  const found = files.filter((candidate) => installs(candidate.file, event))
  return {
    installedIn: found.map((candidate) => candidate.file),
    outdatedIn: found.filter((candidate) => !current(candidate, event)).map((candidate) => candidate.file),
  }
}

/**
 * opencode has one plugin file per level, serving all five events: each event's row names the
 * plugin files, and a plugin whose source is not the one this sangam writes is outdated.
 */
export function opencodeHooks(
  input: HookHealthInput,
  seen: (host: string, event: string) => HookHealth['lastSeen'],
): (HookHealth & { readonly host: 'opencode' })[] {
  const plugins = [join(input.root, '.opencode'), input.opencodeConfigDir].flatMap((dir) => {
    const found = ourPlugin(opencodePluginFile(dir))
    return found === null ? [] : [found]
  })
  const wanted = input.entries === null ? null : opencodePluginSource(input.entries.agentHook)
  const outdated = plugins.filter((plugin) => wanted !== null && plugin.source !== wanted)
  return agentEvents.map((event) => ({
    host: 'opencode' as const,
    event,
    installedIn: plugins.map((plugin) => plugin.file),
    outdatedIn: outdated.map((plugin) => plugin.file),
    trust: null,
    lastSeen: seen('opencode', event),
  }))
}

/** Whether `file` holds exactly the group a current install puts there for `event`. */
function current(candidate: HookFile, event: string): boolean {
  const group = candidate.groups?.[event]
  if (group === undefined) return true
  try {
    const config = readJsonObject(candidate.file)
    return !addOurGroups(config, { [event]: group }, isOurAgentHandler, candidate.file).changed
  } catch {
    return false
  }
}

/** Whether `file` holds our agent hook's handler for `event`. */
export function installs(file: string, event: string): boolean {
  try {
    return ourHandlerPositions(readJsonObject(file), isOurAgentHandler, file).some((at) => at.event === event)
  } catch {
    return false
  }
}

/** The git pre-push hook file, when it is ours. */
export function prePushFiles(root: string): string[] {
  try {
    const file = join(gitHooksDir(root), 'pre-push')
    return isOurPrePush(file) ? [file] : []
  } catch {
    return []
  }
}
