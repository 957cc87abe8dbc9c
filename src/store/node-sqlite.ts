import type * as NodeSqlite from 'node:sqlite'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'

/**
 * The oldest Node.js whose `node:sqlite` has all the store needs: FTS5 in every official build,
 * `isTransaction` and the busy `timeout` option (22.16.0; package.json's `engines` says the same).
 */
export const minimumNode = [22, 16] as const

let loaded: typeof NodeSqlite | undefined

/**
 * Node's built-in SQLite, loaded on first use. Node 22 announces it with an ExperimentalWarning on
 * stderr, where a hook's output reaches the agent and every command's reaches the user: that one
 * warning is dropped while the module loads, and every other warning still goes out. The module
 * is taken with `process.getBuiltinModule`, never a static import, which would load it (and warn)
 * before this code runs.
 */
export function nodeSqlite(): typeof NodeSqlite {
  if (loaded !== undefined) return loaded
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  if (major < minimumNode[0] || (major === minimumNode[0] && minor < minimumNode[1]))
    throw new SangamError(
      ErrorCode.StoreIncompatible,
      `sangam needs Node.js ${minimumNode.join('.')} or later for its store (node:sqlite with FTS5); this is Node.js ${process.version}. Install a current Node.js LTS (22, 24 or 26) and run the command again.`,
      { node: process.version },
    )
  const emitWarning = process.emitWarning
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
    if (isSqliteAnnouncement(warning, rest[0])) return
    Reflect.apply(emitWarning, process, [warning, ...rest])
  } as typeof process.emitWarning
  try {
    loaded = process.getBuiltinModule('node:sqlite')
  } finally {
    process.emitWarning = emitWarning
  }
  return loaded
}

function isSqliteAnnouncement(warning: string | Error, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : (typeOrOptions as { type?: unknown } | undefined)?.type
  const message = typeof warning === 'string' ? warning : warning.message
  const name = typeof warning === 'string' ? type : warning.name
  return name === 'ExperimentalWarning' && message.startsWith('SQLite is an experimental feature')
}
