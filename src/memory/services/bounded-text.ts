/** Cutting stored text down for recall output (search hits, thread items, brief lines). */
export interface BoundedText {
  readonly text: string
  readonly truncated: boolean
}

/** At most `maxChars` characters, cut at a line or word break near the end when there is one. */
export function boundText(text: string, maxChars: number): BoundedText {
  if (text.length <= maxChars) return { text, truncated: false }
  const cut = text.slice(0, maxChars - 1)
  const lastBreak = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '))
  const end = lastBreak > maxChars * 0.8 ? lastBreak : cut.length
  return { text: `${cut.slice(0, end).trimEnd()}…`, truncated: true }
}

/**
 * The first `maxLines` lines (each at most `maxLineChars`), for tool output in a thread, where the
 * gist is at the top and a page of output drowns the turn.
 */
export function headLines(text: string, maxLines: number, maxLineChars: number): BoundedText {
  const lines = text.split('\n')
  const kept = lines.slice(0, maxLines).map((line) => boundText(line, maxLineChars))
  const truncated = lines.length > maxLines || kept.some((line) => line.truncated)
  const omitted = lines.length - kept.length
  const body = kept.map((line) => line.text).join('\n')
  return { text: omitted > 0 ? `${body}\n… ${omitted} more lines` : body, truncated }
}
