/**
 * What makes a worktree dirty, as a refusal names it: the first few files with git's two-letter
 * status (`M `, ` M`, `??`, …) and how many there are in all, so a person sees what to look at
 * without running `git status` to find out what "uncommitted or untracked files" meant.
 */
export interface DirtyFile {
  /** git's porcelain XY: index then worktree (`??` untracked). */
  readonly status: string
  readonly path: string
}

/** `M  src/a.ts, ?? notes.md and 3 more (5 files)`; empty when clean. */
export function describeDirt(files: readonly DirtyFile[], shown = 5): string {
  if (files.length === 0) return ''
  const named = files.slice(0, shown).map((file) => `${file.status.trim() || '?'} ${file.path}`)
  const more = files.length - named.length
  return `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''} (${files.length} file${files.length === 1 ? '' : 's'})`
}

/** Whether every change is staged (none in the worktree alone, untracked files aside). */
export function onlyStaged(files: readonly DirtyFile[]): boolean {
  const tracked = files.filter((file) => file.status !== '??')
  return tracked.length > 0 && tracked.every((file) => file.status[1] === ' ')
}
