/** The last part of a worktree path: what people call the worktree. */
export function baseName(path: string | null | undefined): string {
  if (!path) return '—'
  const parts = path.split(/[\\/]/).filter(Boolean)
  return parts[parts.length - 1] ?? path
}

/** A machine id shortened for a table cell (`m_3f2a9c0d1e4b5a67` → `m_3f2a9c`). */
export function shortMachine(machine: string | null | undefined): string {
  return machine ? machine.slice(0, 8) : '—'
}
