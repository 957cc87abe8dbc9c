import { oneLine } from '../../shared/terminal-text.ts'
import { type Board, boardColumns } from './board.ts'

/**
 * The board as text: four columns side by side when the width allows at least 16 characters a
 * column, else one column under the other. Cells are cut with `…` rather than wrapped, so a card
 * is one line per field and the columns stay aligned.
 */
export function boardText(board: Board, width: number): string {
  const gap = 2
  const columnWidth = Math.floor((width - gap * (boardColumns.length - 1)) / boardColumns.length)
  const blocks = boardColumns.map((column) => {
    const cards = board[column]
    const lines = [`${column.toUpperCase()} (${cards.length})`]
    for (const card of cards) {
      // Escaped before it is cut, so the cut counts what the terminal will show (D290).
      lines.push(`${oneLine(card.title)} [${oneLine(card.threadId)}]`)
      lines.push(`  ${oneLine(card.detail)}`)
      if (card.owners.length > 0) lines.push(`  ${oneLine(card.owners.join(' '))}`)
    }
    return lines
  })
  if (columnWidth < 16)
    return blocks.map((lines) => lines.map((line) => cut(line, width)).join('\n')).join('\n\n')
  const height = Math.max(...blocks.map((lines) => lines.length))
  const rows: string[] = []
  for (let row = 0; row < height; row++) {
    rows.push(
      blocks
        .map((lines) => cut(lines[row] ?? '', columnWidth).padEnd(columnWidth))
        .join(' '.repeat(gap))
        .trimEnd(),
    )
  }
  return rows.join('\n')
}

function cut(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`
}
