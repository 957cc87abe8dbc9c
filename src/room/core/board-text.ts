import { oneLine } from '../../shared/terminal-text.ts'
import { type Board, type BoardCard, boardColumns } from './board.ts'

/**
 * The narrowest column the board lays side by side: a card's id whole (`thr-` and 12 hex) with
 * room to spare, and a title long enough to read. Four such columns and their gaps need 118
 * characters; a narrower terminal gets the list (D353).
 */
export const minColumnWidth = 28
const gap = 2

/**
 * The board as text, fitted to `width` so that every card stays told apart from every other: its
 * id is never cut. Four columns side by side when each gets `minColumnWidth` (title, id, why,
 * who: one line each); else a list, one column under the other, a card on two lines (id and
 * title; why and who). A title too long is cut in its middle, so both its start and its end (a
 * conflict thread's path) show; the other fields are cut at their end. Cut, not wrapped, so the
 * columns stay aligned.
 */
export function boardText(board: Board, width: number): string {
  const columnWidth = Math.floor((width - gap * (boardColumns.length - 1)) / boardColumns.length)
  return columnWidth >= minColumnWidth ? sideBySide(board, columnWidth) : list(board, width)
}

function heading(board: Board, column: (typeof boardColumns)[number]): string {
  return `${column.toUpperCase()} (${board[column].length})`
}

function sideBySide(board: Board, columnWidth: number): string {
  const blocks = boardColumns.map((column) => {
    const lines = [heading(board, column)]
    if (board[column].length === 0) lines.push('  —')
    for (const card of board[column]) {
      const { title, id, detail, owners } = fields(card)
      lines.push(cutMiddle(title, columnWidth), `  ${id}`, cut(`  ${detail}`, columnWidth))
      if (owners !== '') lines.push(cut(`  ${owners}`, columnWidth))
    }
    return lines
  })
  const height = Math.max(...blocks.map((lines) => lines.length))
  const rows: string[] = []
  for (let row = 0; row < height; row++) {
    rows.push(
      blocks
        .map((lines) => (lines[row] ?? '').padEnd(columnWidth))
        .join(' '.repeat(gap))
        .trimEnd(),
    )
  }
  return rows.join('\n')
}

function list(board: Board, width: number): string {
  return boardColumns
    .map((column) => {
      const lines = [heading(board, column)]
      if (board[column].length === 0) lines.push('  —')
      for (const card of board[column]) {
        const { title, id, detail, owners } = fields(card)
        const lead = `  ${id}  `
        lines.push(cut(`${lead}${cutMiddle(title, Math.max(8, width - lead.length))}`, width))
        lines.push(cut(`      ${detail}${owners === '' ? '' : ` · ${owners}`}`, width))
      }
      return lines.join('\n')
    })
    .join('\n\n')
}

/** A card's fields as one line each, escaped before they are cut so a cut counts what the terminal shows (D290). */
function fields(card: BoardCard) {
  return {
    title: oneLine(card.title),
    id: oneLine(card.threadId),
    detail: oneLine(card.detail),
    owners: oneLine(card.owners.join(' ')),
  }
}

function cut(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`
}

/** Cut in the middle: `Merge conflict: src/…/room/board.ts` keeps what tells two titles apart at either end. */
function cutMiddle(text: string, width: number): string {
  if (text.length <= width) return text
  if (width <= 1) return '…'.slice(0, width)
  const head = Math.ceil((width - 1) / 2)
  const tail = width - 1 - head
  return `${text.slice(0, head)}…${tail === 0 ? '' : text.slice(text.length - tail)}`
}
