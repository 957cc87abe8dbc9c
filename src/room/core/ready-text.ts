import type { ReadyBranch, ReadyVerdict } from './ready-verdict.ts'

/**
 * `ready` as text: a summary line, then one row per lane (verdict, branch, uncommitted paths,
 * what it conflicts on with the target and with whom it would collide).
 */
export function readyText(verdict: ReadyVerdict, worktreeName: (path: string) => string): string {
  const lines = [
    `into ${verdict.into}: ${verdict.clean} clean, ${verdict.latent} latent, ${verdict.conflicted} conflicted` +
      (verdict.complete ? '' : ' (incomplete: some lanes could not be merged, so latent is a floor)'),
  ]
  if (verdict.branches.length === 0) {
    lines.push('no other worktrees: nothing to merge')
    return lines.join('\n')
  }
  const rows = verdict.branches.map((branch) => [
    state(branch),
    branch.branch ?? `(detached) ${worktreeName(branch.worktree)}`,
    branch.uncommitted === null ? '-' : String(branch.uncommitted),
    detail(branch, worktreeName),
  ])
  const header = ['verdict', 'branch', 'uncommitted', 'detail']
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  for (const row of [header, ...rows]) {
    lines.push(
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
  }
  return lines.join('\n')
}

function state(branch: ReadyBranch): string {
  if (branch.skipped !== null) return branch.skipped
  if (branch.mergesCleanly === false) return 'conflicted'
  return branch.collidesWith.length > 0 ? 'latent' : 'clean'
}

function detail(branch: ReadyBranch, worktreeName: (path: string) => string): string {
  const parts: string[] = []
  if (branch.skipped === 'missing') parts.push('worktree deleted from disk')
  if (branch.skipped === 'no-commit') parts.push('no commit: unborn or deleted branch')
  if (branch.skipped === 'unrelated') parts.push('shares no history with the target')
  if (branch.conflicts.length > 0) parts.push(`conflicts on ${list(branch.conflicts)}`)
  for (const other of branch.collidesWith) {
    parts.push(`collides with ${other.branch ?? worktreeName(other.worktree)} on ${list(other.paths)}`)
  }
  return parts.join('; ')
}

function list(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ')
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown
}
