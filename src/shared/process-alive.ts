/**
 * Whether a process with this pid exists. EPERM means it exists but belongs to another user, which
 * for a lock or discovery file still means "held".
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
