/**
 * Parses one transcript line into the JSON values it holds. Almost always one; more when a writer
 * appended a record without first ending the previous line (Claude Code has appended a `summary`
 * straight after another object: `{…}{…}`). Returns null when the line is not JSON, or when any
 * piece of a multi-value line is not: a torn line is reported whole, never half-captured.
 */
export function parseJsonValues(line: string): unknown[] | null {
  try {
    return [JSON.parse(line)]
  } catch {
    return parseConcatenated(line)
  }
}

function parseConcatenated(line: string): unknown[] | null {
  const values: unknown[] = []
  let start = skipSpace(line, 0)
  while (start < line.length) {
    const end = endOfValue(line, start)
    if (end === -1) return null
    try {
      values.push(JSON.parse(line.slice(start, end)))
    } catch {
      return null
    }
    start = skipSpace(line, end)
  }
  return values.length > 1 ? values : null
}

/** Index just past the object or array that starts at `start`, or -1 if it never closes. */
function endOfValue(text: string, start: number): number {
  const open = text[start]
  if (open !== '{' && open !== '[') return -1
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c)
        i++ // backslash: skip the escaped character
      else if (ch === 0x22) inString = false
      continue
    }
    if (ch === 0x22) inString = true
    else if (ch === 0x7b || ch === 0x5b) depth++
    else if (ch === 0x7d || ch === 0x5d) {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

function skipSpace(text: string, from: number): number {
  let i = from
  while (i < text.length && /\s/.test(text[i] ?? '')) i++
  return i
}
