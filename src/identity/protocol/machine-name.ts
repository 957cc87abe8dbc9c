/**
 * The shape of a machine's readable name, without zod: the CLI, the hooks and the brief check it
 * (core/machine-name.ts) without loading a schema library; the room's `protocol/machine.ts` builds
 * its schema from it.
 */

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: a hostname's alphabet. */
export const machineNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/
export const maxMachineNameChars = 40
