import type { PathMatcher } from '../../core/leases/edit.ts'
import { patternKey } from '../../core/leases/pattern.ts'
import { foldedMatcher } from '../../store/leases/lease-regex.ts'

/**
 * How a lease pattern meets a path: case-insensitively and by Unicode canonical equivalence (NFC:
 * macOS hands out NFD names, editors and people type NFC; `patternKey` folds patterns the same way), by picomatch's rules (store/leases/lease-regex.ts,
 * which compiles each pattern once, or reads what was compiled when its lease was written). The
 * overlap analysis in core/leases/overlap.ts is proved sound against exactly this matcher.
 */
export const matchLeasePath: PathMatcher = (pattern, path) =>
  foldedMatcher(patternKey(pattern))(patternKey(path))
