/** One command's medians beside its peer's, and the git processes sangam's run spawned. */
export interface Measured {
  readonly name: string
  readonly peerName: string
  readonly sangamMs: number
  readonly peerMs: number | null
  readonly gitCalls: number | null
}

/** The figures as a markdown table, one `print` per line, with sangam/peer as a ratio. */
export function table(rows: readonly Measured[], print: (line: string) => void): void {
  const cells = rows.map((row) => [
    row.name,
    `${row.sangamMs.toFixed(0)} ms`,
    row.gitCalls === null ? '-' : String(row.gitCalls),
    row.peerMs === null ? '-' : `${row.peerName} ${row.peerMs.toFixed(0)} ms`,
    row.peerMs === null ? '-' : `${(row.sangamMs / row.peerMs).toFixed(2)}×`,
  ])
  const header = ['command', 'sangam (median)', 'git processes', 'peer (median)', 'sangam/peer']
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((cell) => (cell[i] ?? '').length)),
  )
  const line = (cell: readonly string[]) =>
    `| ${cell.map((text, i) => text.padEnd(widths[i] ?? 0)).join(' | ')} |`
  print(line(header))
  print(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const cell of cells) print(line(cell))
}
