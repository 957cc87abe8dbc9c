import { arrayOr, isObject, text } from './codex-record.ts'

/**
 * Every text the Codex reader builds is cut here, before it is materialised whole: a 5 MB command
 * output must not cost a 5 MB string per record. Capture bounds stored tool output further.
 */
export const maxBuiltText = 64 * 1024

/**
 * Tool outputs that are JSON inside a string (`{"output":"…","metadata":…}`, `[{"text":…}]`) are
 * parsed a second time to unwrap them; past this size the raw string is kept instead, so a huge
 * output is never parsed twice just to keep its first 64 KiB.
 */
const maxUnwrappedOutput = 256 * 1024

/** Cuts `value` to at most `limit` UTF-16 units without splitting a surrogate pair. */
export function boundChars(value: string, limit: number = maxBuiltText): string {
  if (value.length <= limit) return value
  if (limit <= 0) return ''
  const last = value.charCodeAt(limit - 1)
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit)
}

/** Joins non-empty pieces with `separator`, stopping once `maxBuiltText` is reached. */
export function joinBounded(pieces: readonly string[], separator: string): string {
  const kept: string[] = []
  let size = 0
  for (const piece of pieces) {
    if (piece === '') continue
    if (size >= maxBuiltText) break
    const part = boundChars(piece, maxBuiltText - size)
    kept.push(part)
    size += part.length + separator.length
  }
  return boundChars(kept.join(separator))
}

/**
 * The text of the parts of a content array whose `type` is one of `types` (`input_text`,
 * `output_text`, `text`, …), joined by newlines. Images and encrypted parts carry no text.
 */
export function contentText(content: unknown, types: ReadonlySet<string>): string {
  const pieces: string[] = []
  for (const part of arrayOr(content)) {
    if (!isObject(part) || typeof part.type !== 'string' || !types.has(part.type)) continue
    const value = text(part.text)
    if (value !== null) pieces.push(value)
  }
  return joinBounded(pieces, '\n')
}

const outputPartTypes = new Set(['input_text', 'output_text', 'text'])

/**
 * The readable text of a tool output (formats.md B2.5, B4.8): plain text; JSON in a string
 * (`{"output":"…"}` from ≤0.7x and apply_patch, `[{"text":"…"}]` from legacy MCP tools); an array
 * of content items; or one content item. Anything else has no text.
 */
export function toolOutputText(output: unknown): string {
  if (typeof output === 'string') return boundChars(unwrapJsonOutput(output) ?? output)
  if (Array.isArray(output)) return textOfItems(output)
  if (isObject(output)) return boundChars(text(output.text) ?? text(output.output) ?? '')
  return ''
}

/**
 * Only the two wrapper shapes are parsed: an output that merely is JSON (`cat package.json`) is
 * kept as it is, without a second parse.
 */
function unwrapJsonOutput(output: string): string | null {
  if (output.length > maxUnwrappedOutput) return null
  if (
    !output.startsWith('{"output":') &&
    !output.startsWith('[{"text":') &&
    !output.startsWith('[{"type":')
  ) {
    return null
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(output)
  } catch {
    return null // plain text that happens to start with a brace
  }
  if (Array.isArray(parsed)) return textOfItems(parsed)
  return isObject(parsed) && typeof parsed.output === 'string' ? parsed.output : null
}

function textOfItems(items: readonly unknown[]): string {
  const pieces: string[] = []
  for (const item of items) {
    if (typeof item === 'string') pieces.push(item)
    else if (
      isObject(item) &&
      (item.type === undefined || (typeof item.type === 'string' && outputPartTypes.has(item.type)))
    ) {
      const value = text(item.text)
      if (value !== null) pieces.push(value)
    }
  }
  return joinBounded(pieces, '\n')
}
