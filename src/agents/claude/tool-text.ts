import { isJsonObject } from './json-object.ts'

/**
 * Text built from tool inputs and results is bounded here, before it is ever materialised: a Write
 * of a 5 MB file or a Read of a huge log must not cost a 5 MB string per line. Capture bounds
 * stored tool output further.
 */
export const maxBuiltText = 64 * 1024

/** Nesting deeper than this is elided: JSON.parse accepts depths that would overflow a recursive walk. */
const maxDepth = 64

/** `Name {"compact":"json"}` for a `tool_use` block. */
export function toolCallText(name: string, input: unknown): string {
  if (input === undefined || name.length >= maxBuiltText) return boundChars(name, maxBuiltText)
  return `${name} ${boundedJson(input, maxBuiltText - name.length - 1)}`
}

/**
 * Compact JSON of a parsed value, cut at `limit` characters. Never calls JSON.stringify on
 * anything but a leaf, so neither a huge string nor a deep value is serialised whole.
 */
export function boundedJson(value: unknown, limit: number = maxBuiltText): string {
  const writer = new BoundedJsonWriter(limit)
  writer.write(value, 0)
  return writer.text()
}

class BoundedJsonWriter {
  readonly #limit: number
  readonly #parts: string[] = []
  #size = 0

  constructor(limit: number) {
    this.#limit = limit
  }

  text(): string {
    return boundChars(this.#parts.join(''), this.#limit)
  }

  write(node: unknown, depth: number): void {
    if (this.#size >= this.#limit) return
    if (typeof node === 'string') this.#push(JSON.stringify(boundChars(node, this.#limit - this.#size)))
    else if (typeof node === 'number') this.#push(Number.isFinite(node) ? String(node) : 'null')
    else if (typeof node === 'boolean') this.#push(node ? 'true' : 'false')
    else if (node === null || typeof node !== 'object') this.#push('null')
    else if (depth >= maxDepth) this.#push('…')
    else if (Array.isArray(node)) this.#writeArray(node, depth)
    else if (isJsonObject(node)) this.#writeObject(node, depth)
  }

  #writeArray(node: readonly unknown[], depth: number): void {
    this.#push('[')
    for (let i = 0; i < node.length && this.#size < this.#limit; i++) {
      if (i > 0) this.#push(',')
      this.write(node[i], depth + 1)
    }
    this.#push(']')
  }

  #writeObject(node: Record<string, unknown>, depth: number): void {
    this.#push('{')
    let first = true
    for (const key in node) {
      if (this.#size >= this.#limit) break
      this.#push(`${first ? '' : ','}${JSON.stringify(boundChars(key, this.#limit - this.#size))}:`)
      this.write(node[key], depth + 1)
      first = false
    }
    this.#push('}')
  }

  #push(piece: string): void {
    this.#parts.push(piece)
    this.#size += piece.length
  }
}

/**
 * The readable text of a `tool_result` content: a string, or the `text` parts of an array of
 * blocks (images and `tool_reference`s carry no text). Bounded to `maxBuiltText`.
 */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return boundChars(content, maxBuiltText)
  if (!Array.isArray(content)) return ''
  return textOfBlocks(content, maxBuiltText)
}

/** The `text` of every text block (or bare string) in an array, joined by newlines, bounded. */
export function textOfBlocks(blocks: readonly unknown[], limit: number): string {
  const parts: string[] = []
  let size = 0
  for (const block of blocks) {
    if (size >= limit) break
    const text =
      typeof block === 'string' ? block : isJsonObject(block) && block.type === 'text' ? block.text : null
    if (typeof text !== 'string' || text === '') continue
    const part = boundChars(text, limit - size)
    parts.push(part)
    size += part.length + 1
  }
  return boundChars(parts.join('\n'), limit)
}

/** Cuts `text` to at most `limit` UTF-16 units without splitting a surrogate pair. */
export function boundChars(text: string, limit: number): string {
  if (text.length <= limit) return text
  if (limit <= 0) return ''
  const last = text.charCodeAt(limit - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit)
}
