/**
 * The room option that says which tags wake a session: `off`, no tag wakes anyone; `direct`, an
 * `@handle` does; `all`, also a `#worktree` a session is active in. The room's settings hold it;
 * delivery acts on it.
 */
export const wakeOnTagValues = ['off', 'direct', 'all'] as const
export type WakeOnTag = (typeof wakeOnTagValues)[number]

export function isWakeOnTag(value: unknown): value is WakeOnTag {
  return typeof value === 'string' && (wakeOnTagValues as readonly string[]).includes(value)
}
