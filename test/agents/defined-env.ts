/**
 * The lab's environment without its unset entries, for what spawns a real CLI directly: the lab
 * builds its environment as `process.env` is typed (an entry may be undefined, say PATH), and a
 * child's environment is strings only.
 */
export function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}
