import type { PathMatcher } from '../core/edit.ts'
import { patternKey } from '../core/pattern.ts'
import { foldedMatcher } from '../store/lease-regex.ts'

/**
 * How a lease pattern meets a path: case-insensitively and by Unicode canonical equivalence (NFC:
 * macOS hands out NFD names, editors and people type NFC; `patternKey` folds patterns the same way), by picomatch's rules (leases/store/lease-regex.ts,
 * which compiles each pattern once, or reads what was compiled when its lease was written). The
 * overlap analysis in leases/core/overlap.ts is proved sound against exactly this matcher.
 */
export const matchLeasePath: PathMatcher = (pattern, path) =>
  foldedMatcher(patternKey(pattern))(patternKey(path))
