/**
 * Handles: the `@name` a session answers to. Derived from the vendor and the worktree's directory
 * (`claude-lane-one`), so it is the same every time the session is seen; de-duplicated in the
 * order sessions were first seen (`-2`, `-3`), so an earlier session never loses its handle to a
 * later one. A handle chosen with `identify` is claimed and kept through role changes.
 */

/** Letters, digits and inner dashes; at most 48 characters. */
const handleShape = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/
const maxLength = 48

/** Words a handle may not be: `@human` addresses every human. */
export const reservedHandles: readonly string[] = ['human', 'all', 'everyone']

/** Lowercase, every run of other characters one dash, trimmed of dashes. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** `<vendor>-<worktree dir name>`; `<vendor>` alone when the worktree is unknown. */
export function defaultHandle(vendor: string, worktreePath: string | null): string {
  const dir = worktreePath === null ? '' : slug(lastSegment(worktreePath))
  const base = slug(dir === '' ? vendor : `${vendor}-${dir}`)
  return trimTo(base === '' ? 'agent' : base, maxLength)
}

/**
 * A person's handle from their name: the part before `@` of an e-mail (`bob@example.com` → `bob`),
 * else the name, as a slug; `someone` when nothing is left, never a reserved word.
 */
export function personHandle(name: string): string {
  const base = trimTo(slug(name.split('@')[0] ?? ''), maxLength) || 'someone'
  return reservedHandles.includes(base) ? `${base}-1` : base
}

/** Why `handle` cannot be claimed by its shape alone, or null when it can. */
export function handleProblem(handle: string): string | null {
  if (reservedHandles.includes(handle)) return `"${handle}" is reserved (@human addresses every human)`
  if (!handleShape.test(handle)) {
    return `"${handle}" is not a handle: use lowercase letters, digits and inner dashes, at most ${maxLength} characters`
  }
  return null
}

/** `base` when free, else `base-2`, `base-3`, … the first one `taken` does not hold. */
export function freeHandle(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`
    const candidate = `${trimTo(base, maxLength - suffix.length)}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

export interface HandleHolder {
  readonly key: string
  readonly handle: string
  readonly claimed: boolean
}

/**
 * Makes the handles of `holders` (in first-seen order) distinct: claimed handles first, then the
 * rest in order, each keeping its own when free, else the next free `-n`. Two machines that picked
 * one handle at once thus both show distinct handles, the same ones on every replica.
 */
export function distinctHandles(holders: readonly HandleHolder[]): Map<string, string> {
  const result = new Map<string, string>()
  const taken = new Set<string>()
  for (const holder of holders) {
    if (!holder.claimed || taken.has(holder.handle)) continue
    result.set(holder.key, holder.handle)
    taken.add(holder.handle)
  }
  for (const holder of holders) {
    if (result.has(holder.key)) continue
    const handle = freeHandle(holder.handle, taken)
    result.set(holder.key, handle)
    taken.add(handle)
  }
  return result
}

function lastSegment(path: string): string {
  const parts = path.split(/[/\\]+/).filter((part) => part !== '')
  return parts[parts.length - 1] ?? ''
}

function trimTo(text: string, length: number): string {
  return text.slice(0, length).replace(/-+$/g, '')
}
