import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname } from 'node:path'
import { machineNameFile } from '../../config/data-paths.ts'
import { machineNameFromHostname, machineNameProblem } from '../core/machine-name.ts'

/**
 * This data dir's readable machine name: the one its user set (`$SANGAM_HOME/machine-name`, 0600),
 * else the host's name. A file that holds no valid name (edited by hand) counts as unset.
 */
export function loadMachineName(sangamHome: string, host: () => string = hostname): string {
  return readMachineName(sangamHome) ?? machineNameFromHostname(host())
}

/** The name set for this data dir, or null when none is (or the file holds no valid name). */
export function readMachineName(sangamHome: string): string | null {
  try {
    const text = readFileSync(machineNameFile(sangamHome), 'utf8').trim()
    return machineNameProblem(text) === null ? text : null
  } catch {
    return null
  }
}

/** Sets this data dir's name; the caller checked it with `machineNameProblem`. Atomic (rename). */
export function saveMachineName(sangamHome: string, name: string): void {
  const file = machineNameFile(sangamHome)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, `${name}\n`, { mode: 0o600 })
  renameSync(temporary, file)
}
