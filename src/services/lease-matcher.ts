import picomatch from 'picomatch'
import type { PathMatcher } from '../core/lease-edit.ts'
import { patternKey } from '../core/lease-pattern.ts'

/**
 * How a lease pattern meets a path: picomatch on case-folded text, dot files included (a lease on
 * `src/**` covers `src/.env`), POSIX separators whatever the platform. The overlap analysis in
 * core/lease-overlap.ts is proved sound against exactly this matcher.
 */
export const matchLeasePath: PathMatcher = (pattern, path) => compiled(pattern)(path.toLowerCase())

const cache = new Map<string, (path: string) => boolean>()

function compiled(pattern: string): (path: string) => boolean {
  const key = patternKey(pattern)
  const known = cache.get(key)
  if (known !== undefined) return known
  if (cache.size >= 1024) cache.clear()
  const matcher = picomatch(key, { dot: true, windows: false })
  cache.set(key, matcher)
  return matcher
}
