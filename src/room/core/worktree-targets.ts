import { slug } from './handles.ts'

/**
 * `#targets` for worktrees: the directory name when no other worktree of the project has it;
 * otherwise each of the same name is prefixed with its parents' names, one more at a time, until
 * the names differ (`a-lane`, `b-lane`). Depends only on the set of paths, so every replica and
 * every run gives each worktree the same target.
 */
export function worktreeTargets(paths: readonly string[]): Map<string, string> {
  const unique = [...new Set(paths)]
  const result = new Map<string, string>()
  const byName = new Map<string, string[]>()
  for (const path of unique) {
    const name = targetFrom(segments(path).slice(-1))
    byName.set(name, [...(byName.get(name) ?? []), path])
  }
  const used = new Set<string>()
  for (const [name, group] of byName) {
    if (group.length === 1) {
      result.set(group[0] as string, name)
      used.add(name)
    }
  }
  for (const [, group] of byName) {
    if (group.length === 1) continue
    for (const [path, target] of disambiguate(group, used)) {
      result.set(path, target)
      used.add(target)
    }
  }
  return result
}

function disambiguate(group: readonly string[], used: ReadonlySet<string>): Map<string, string> {
  const deepest = Math.max(...group.map((path) => segments(path).length))
  for (let depth = 2; depth <= deepest; depth += 1) {
    const names = group.map((path) => targetFrom(segments(path).slice(-depth)))
    if (new Set(names).size === group.length && names.every((name) => !used.has(name))) {
      return new Map(group.map((path, i) => [path, names[i] as string]))
    }
  }
  // Paths that differ only in characters a target cannot hold: number them in path order.
  const sorted = [...group].sort()
  const base = targetFrom(segments(sorted[0] as string).slice(-1))
  return new Map(sorted.map((path, i) => [path, i === 0 ? base : `${base}-${i + 1}`]))
}

function segments(path: string): string[] {
  return path.split(/[/\\]+/).filter((part) => part !== '')
}

function targetFrom(parts: readonly string[]): string {
  const target = slug(parts.join('-'))
  return target === '' ? 'root' : target
}
