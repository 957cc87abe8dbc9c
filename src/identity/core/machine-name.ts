import { machineNamePattern, maxMachineNameChars } from '../protocol/machine-name.ts'

/**
 * A machine's readable name is free text a person chose (or their hostname): every name that
 * enters sangam, set by `identify --machine` or read from the host, passes through here first,
 * so one place decides what a name may hold before any view or the team sees it.
 */

/** Why `name` cannot be a machine's name, or null when it can. */
export function machineNameProblem(name: string): string | null {
  if (machineNamePattern.test(name)) return null
  return `"${name}" is not a machine name: use 1–${maxMachineNameChars} letters, digits, ".", "_" or "-", starting with a letter or digit`
}

/**
 * The name a machine goes by when nobody chose one: its hostname's first label (`alice-laptop`
 * for `alice-laptop.local`), other characters as `-`; `machine` when nothing is left.
 */
export function machineNameFromHostname(hostname: string): string {
  const label = hostname.trim().split('.')[0] ?? ''
  const cleaned = label
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, maxMachineNameChars)
    .replace(/[-_]+$/, '')
  return cleaned === '' ? 'machine' : cleaned
}
