/**
 * The recipients a message's text names: `@handle` and `#worktree`, outside code. Fenced blocks
 * (``` or ~~~) and inline code spans are skipped, so `#include <x>` or `@param` in a snippet never
 * become recipients; `a@b.com` is an address, not a mention (an `@` preceded by a word character).
 *
 * No form a person writes as a mention is dropped (D271): `@ name` (spaces after the `@`, as
 * chat-room reads it), `@@name`, the full-width `＠name` / `＃name` an input method types, and a
 * name in any script (`@José`, `@_bot`) are all mentions; the post then resolves each one, and a
 * name the room does not know is refused, never ignored. `# name` (a space after `#`) stays text:
 * it is a Markdown heading or a number sign.
 */
export interface Mentions {
  /** Without `@`, in order of first mention. */
  readonly handles: readonly string[]
  /** Without `#`, in order of first mention. */
  readonly worktrees: readonly string[]
  /** How each token (`@name`, `#name`) was first written, when that differs from the token (`@ name`). */
  readonly spelled: ReadonlyMap<string, string>
}

const fence = /^ {0,3}(`{3,}|~{3,})/

/** The text with fenced blocks and inline code spans blanked out (each replaced by a space). */
function withoutCode(text: string): string {
  const kept: string[] = []
  let open: string | null = null
  for (const line of text.split('\n')) {
    const marker = fence.exec(line)?.[1]
    if (open !== null) {
      if (marker !== undefined && marker[0] === open[0] && marker.length >= open.length) open = null
      kept.push('')
      continue
    }
    if (marker !== undefined) {
      open = marker
      kept.push('')
      continue
    }
    kept.push(line)
  }
  // A code span opens with a run of backticks and closes with a run of the same length; an
  // unclosed run is literal text (CommonMark), so it hides nothing.
  return kept.join('\n').replace(/(`+)[\s\S]*?(?<!`)\1(?!`)/g, ' ')
}

// A sigil not glued to a word, a path or an entity (`a@b.com`, `node_modules/@types`, `&#39;`); for
// `@`, a run of them and spaces or tabs before the name; then a name in any script.
const mention = /(?<![\p{L}\p{N}_#＃&/.-])(?:([@＠]+)[ \t]*|([#＃]))([\p{L}\p{N}_][\p{L}\p{N}._-]*)/gu

export function parseMentions(text: string): Mentions {
  const handles: string[] = []
  const worktrees: string[] = []
  const spelled = new Map<string, string>()
  for (const match of withoutCode(text).matchAll(mention)) {
    // A sentence's full stop or a trailing dash is not part of the name.
    const name = (match[3] ?? '').replace(/[._-]+$/, '')
    if (name.length === 0) continue
    const isHandle = match[1] !== undefined
    const list = isHandle ? handles : worktrees
    if (list.includes(name)) continue
    list.push(name)
    const token = `${isHandle ? '@' : '#'}${name}`
    const written = match[0].slice(0, match[0].length - (match[3] ?? '').length + name.length)
    if (written !== token) spelled.set(token, written)
  }
  return { handles, worktrees, spelled }
}
