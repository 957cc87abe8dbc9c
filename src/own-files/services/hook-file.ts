import { rmSync } from 'node:fs'
import { addOurGroups, type HookGroup, ourHandlerPositions, removeOurGroups } from '../core/hook-config.ts'
import { isOurAgentHandler } from '../core/our-handler.ts'
import { readJsonObject, writeJsonObject } from './config-file.ts'

/** What an install or uninstall did to one host configuration file. */
export interface HookFileChange {
  readonly file: string
  readonly change: 'added' | 'updated' | 'unchanged' | 'removed' | 'absent'
}

/** Puts our groups into a Claude settings.json or Codex hooks.json, keeping everything else. */
export function installHookFile(file: string, groups: Readonly<Record<string, HookGroup>>): HookFileChange {
  const before = readJsonObject(file)
  const { config, changed } = addOurGroups(before, groups, isOurAgentHandler, file)
  if (!changed) return { file, change: 'unchanged' }
  writeJsonObject(file, config)
  const hadOurs = removeOurGroups(before, isOurAgentHandler, file).changed
  return { file, change: hadOurs ? 'updated' : 'added' }
}

/**
 * Takes our handlers out of a host file. A file left holding nothing at all is deleted: it held
 * only what we put there.
 */
export function uninstallHookFile(file: string): HookFileChange {
  const before = readJsonObject(file)
  const { config, changed } = removeOurGroups(before, isOurAgentHandler, file)
  if (!changed) return { file, change: 'absent' }
  if (Object.keys(config).length === 0) rmSync(file, { force: true })
  else writeJsonObject(file, config)
  return { file, change: 'removed' }
}

/** Whether a host file holds any handler of ours; an unreadable file holds none we can see. */
export function holdsOurHooks(file: string): boolean {
  try {
    return ourHandlerPositions(readJsonObject(file), isOurAgentHandler, file).length > 0
  } catch {
    return false
  }
}
