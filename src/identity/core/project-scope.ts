/**
 * Whether a session's working directory lies inside the project: equal to, or below, one of its
 * worktrees. Compared as '/'-separated strings; a trailing slash never matters, and `/a/bc` is not
 * inside `/a/b`.
 */
export function isInsideProject(cwd: string, worktrees: readonly string[]): boolean {
  const path = stripTrailingSlash(cwd)
  return worktrees.some((worktree) => {
    const root = stripTrailingSlash(worktree)
    return path === root || path.startsWith(`${root}/`)
  })
}

function stripTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path
}
