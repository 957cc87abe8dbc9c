/**
 * The recipients a message's text names: `@handle` and `#worktree`, outside code. Fenced blocks
 * (``` or ~~~) and inline code spans are skipped, so `#include <x>` or `@param` in a snippet never
 * become recipients; `a@b.com` is an address, not a mention (an `@` preceded by a word character).
 */
export interface Mentions {
  /** Without `@`, in order of first mention. */
  readonly handles: readonly string[]
  /** Without `#`, in order of first mention. */
  readonly worktrees: readonly string[]
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

const mention = /(?<![\w@#&/.-])([@#])([A-Za-z0-9][A-Za-z0-9._-]*)/g

export function parseMentions(text: string): Mentions {
  const handles: string[] = []
  const worktrees: string[] = []
  for (const match of withoutCode(text).matchAll(mention)) {
    // A sentence's full stop or a trailing dash is not part of the name.
    const name = (match[2] ?? '').replace(/[._-]+$/, '')
    if (name.length === 0) continue
    const list = match[1] === '@' ? handles : worktrees
    if (!list.includes(name)) list.push(name)
  }
  return { handles, worktrees }
}
