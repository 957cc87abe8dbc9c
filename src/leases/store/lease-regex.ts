import { createRequire } from 'node:module'
import type picomatchModule from 'picomatch'
import { literalPath } from '../core/pattern.ts'

/**
 * How a folded lease pattern (`patternKey`) meets a folded repository-relative path: picomatch,
 * dot files included (a lease on `src/**` covers `src/.env`), POSIX separators whatever the
 * platform. picomatch is the one definition; this module only decides when to run it.
 *
 * The edit hook starts on every edit, and loading picomatch and compiling a pattern costs it more
 * than its database query. So each glob is compiled when its lease is written (a claim, a lease
 * mirrored from the team server): the regular expression picomatch builds is stored in the lease
 * row, and reading the row hands it here (`rememberCompiled`). A pattern that names one path
 * (every auto-lease) needs no expression at all: it matches that path only. picomatch itself is
 * loaded on first need, which the hook reaches only for a lease written before the stored column.
 */
export type FoldedMatcher = (path: string) => boolean

const options = { dot: true, windows: false } as const

/**
 * The source of the regular expression picomatch matches `key` with, or null when `key` names one
 * path. Computed by picomatch itself, so the stored form cannot drift from the matcher's.
 */
export function compileLeasePattern(key: string): string | null {
  if (literalPath(key) !== null) return null
  const regex = picomatch().makeRe(key, options)
  // Flags would be lost in the stored source; picomatch sets none for these options.
  if (regex.flags !== '') throw new Error(`picomatch compiled ${key} with flags ${regex.flags}`)
  return regex.source
}

/** The matcher for `key`: equality for a path, the stored expression when known, else picomatch. */
export function foldedMatcher(key: string): FoldedMatcher {
  const known = cache.get(key)
  if (known !== undefined) return known
  const literal = literalMatcher(key)
  if (literal !== null) return remember(key, literal)
  const matcher = picomatch()(key, options)
  return remember(key, (candidate) => matcher(candidate))
}

/** Records the expression stored with a lease, so that matching it compiles nothing. */
export function rememberCompiled(key: string, source: string): void {
  if (!cache.has(key)) remember(key, storedMatcher(key, source))
}

/** For a pattern naming one path, the matcher picomatch would be: that path only. */
export function literalMatcher(key: string): FoldedMatcher | null {
  const path = literalPath(key)
  if (path === null) return null
  // picomatch also takes a path spelled exactly like the glob's text (`a[[]1[]].ts` itself).
  return (candidate) => candidate === path || candidate === key
}

/** picomatch's matcher around the expression it compiled `key` to. */
export function storedMatcher(key: string, source: string): FoldedMatcher {
  const regex = new RegExp(source)
  // What picomatch.test does around its expression: an empty path matches nothing, and a path
  // spelled like the glob's text matches whatever the expression says.
  return (candidate) => candidate !== '' && (candidate === key || regex.test(candidate))
}

const cache = new Map<string, FoldedMatcher>()

function remember(key: string, matcher: FoldedMatcher): FoldedMatcher {
  if (cache.size >= 1024) cache.clear()
  cache.set(key, matcher)
  return matcher
}

let loaded: typeof picomatchModule | undefined

/**
 * picomatch, loaded on first use with a synchronous require: matching runs inside SQLite
 * transactions, which cannot wait for a dynamic import.
 */
function picomatch(): typeof picomatchModule {
  loaded ??= createRequire(import.meta.url)('picomatch') as typeof picomatchModule
  return loaded
}
