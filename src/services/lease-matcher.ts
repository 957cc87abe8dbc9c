import type { PathMatcher } from '../core/lease-edit.ts'
import { patternKey } from '../core/lease-pattern.ts'
import { foldedMatcher } from '../store/lease-regex.ts'

/**
 * How a lease pattern meets a path: case-insensitively, by picomatch's rules (store/lease-regex.ts,
 * which compiles each pattern once, or reads what was compiled when its lease was written). The
 * overlap analysis in core/lease-overlap.ts is proved sound against exactly this matcher.
 */
export const matchLeasePath: PathMatcher = (pattern, path) =>
  foldedMatcher(patternKey(pattern))(path.toLowerCase())
