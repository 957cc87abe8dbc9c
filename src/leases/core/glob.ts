/**
 * Reads a case-folded lease pattern into a shape the overlap analysis can reason about: a set of
 * alternatives (braces expanded), each a sequence of segments or `**`, each segment a sequence of
 * character sets and stars. The shape is exact for the syntax people write in lease patterns
 * (literals, `*`, `?`, `**`, `[a-z]`/`[^…]` classes, `{a,b}` lists) and an over-approximation for
 * the rest, so an overlap found on shapes is never missed on real paths:
 *
 * - a segment with syntax we do not model (extglobs `@(…)` `!(…)`, groups, `{1..3}` ranges,
 *   POSIX classes, stray brackets) stands for any one segment or none, or for `**` when it holds
 *   `**`;
 * - a group that may span a `/` (`*(a|b/c)`, `[…/…]`) makes the whole pattern "universal";
 * - more than `maxAlternatives` brace alternatives make it universal too.
 */

/** Code-unit ranges (inclusive); `negated` means every code unit outside them. `?` is the empty negated set. */
export interface CharSet {
  readonly negated: boolean
  readonly ranges: readonly (readonly [number, number])[]
}

export type SegmentToken = { readonly type: 'char'; readonly set: CharSet } | { readonly type: 'star' }

export type PatternItem =
  | {
      readonly type: 'segment'
      readonly tokens: readonly SegmentToken[]
      /** May match no segment at all: extglobs can match '', and after `**` picomatch lets that end the path. */
      readonly optional?: true | undefined
      /** The one string the segment matches, when it has no wildcard: compared without automata. */
      readonly literal?: string | undefined
    }
  | { readonly type: 'globstar' }

export type PatternShape =
  | { readonly universal: true }
  | {
      readonly universal: false
      readonly alternatives: readonly (readonly PatternItem[])[]
      /** False when some segment was approximated: then an overlap found may not be real. */
      readonly exact: boolean
    }

export const maxAlternatives = 64

const universal: PatternShape = { universal: true }
const anyChar: CharSet = { negated: true, ranges: [] }
/** Stand-ins for segments we do not model; compared by identity to know the shape is approximate. */
const approximateSegment: PatternItem = { type: 'segment', tokens: [{ type: 'star' }], optional: true }
const approximateGlobstar: PatternItem = { type: 'globstar' }
/** Outside a class these make a segment something we do not model. */
const unmodelled = new Set(['(', ')', '|', '!', '@', '+', '{', '}', '[', ']'])

/** Parses a folded, normalised pattern (see `patternKey`). */
export function parsePattern(folded: string): PatternShape {
  const alternatives = expandBraces(folded)
  if (alternatives === null) return universal
  const parsed: PatternItem[][] = []
  // picomatch reads `**` beside a brace list (`{,a}**`) as a plain star, but expanded it becomes a
  // globstar; the expansion matches more, which is sound, and is marked inexact.
  let exact = !(alternatives.length > 1 && folded.includes('**'))
  for (const alternative of alternatives) {
    if (alternative === '') continue
    if (mayCrossSlash(alternative)) return universal
    const segments = alternative.split('/')
    // A brace option can leave an empty segment (`*/{,a}` gives `*/`); picomatch then demands the
    // slash, so no clean path matches. Dropping the segment matches more, which stays sound.
    const items = segments.filter((segment) => segment !== '').map(parseSegment)
    exact &&= items.length === segments.length
    exact &&= items.every((item) => item !== approximateSegment && item !== approximateGlobstar)
    exact &&= !trailingGlobstarAfterStar(items)
    parsed.push(items)
  }
  return { universal: false, alternatives: parsed, exact }
}

/**
 * Where a strict class starting at `start` (`[`) ends (index after `]`), or null when it is not
 * one. Strict: `[c]` for any single c but `/` and `^` (picomatch's own escape form), or an optional
 * leading `^` and then ASCII characters and ranges `a-z`, without `[ ] ! ^ / \`. These picomatch
 * compiles to the same regular-expression class, minus `/`.
 */
export function classEnd(text: string, start: number): number | null {
  const single = text[start + 1]
  if (single !== undefined && single !== '/' && single !== '^' && text[start + 2] === ']') return start + 3
  const close = text.indexOf(']', start + 1)
  if (close < 0) return null
  const body = text.slice(start + (text[start + 1] === '^' ? 2 : 1), close)
  if (body === '' || ![...body].every(isClassChar)) return null
  return parseRanges(body) === null ? null : close + 1
}

/** Printable ASCII except what picomatch or regular expressions read specially inside a class. */
function isClassChar(char: string): boolean {
  const code = char.charCodeAt(0)
  return code >= 0x20 && code <= 0x7e && !'[]!^/\\'.includes(char)
}

function parseRanges(body: string): [number, number][] | null {
  const ranges: [number, number][] = []
  for (let i = 0; i < body.length; i++) {
    const from = body.charCodeAt(i)
    if (body[i + 1] === '-' && i + 2 < body.length) {
      const to = body.charCodeAt(i + 2)
      // `a-c-e` reads differently in different engines; a reversed range matches nothing in picomatch.
      if (to < from || body[i + 3] === '-') return null
      ranges.push([from, to])
      i += 2
    } else {
      ranges.push([from, from])
    }
  }
  return ranges
}

function classSet(text: string, start: number, end: number): CharSet {
  if (end === start + 3) {
    const code = text.charCodeAt(start + 1)
    return { negated: false, ranges: [[code, code]] }
  }
  const negated = text[start + 1] === '^'
  const ranges = parseRanges(text.slice(start + (negated ? 2 : 1), end - 1)) ?? []
  return { negated, ranges }
}

/**
 * Expands `{a,b}` lists (nested too) into alternatives; null past `maxAlternatives`. A brace group
 * counts only when it is balanced, has a top-level comma and holds no brackets, parentheses or
 * `..`; anything else stays in the text and reads as unmodelled syntax.
 */
function expandBraces(text: string): string[] | null {
  const out: string[] = []
  const pending = [text]
  while (pending.length > 0) {
    const current = pending.pop() ?? ''
    const group = findBraceGroup(current)
    if (group === null) {
      out.push(current)
      if (out.length > maxAlternatives) return null
      continue
    }
    const prefix = current.slice(0, group.open)
    const suffix = current.slice(group.close + 1)
    for (const option of group.options) pending.push(prefix + option + suffix)
    if (pending.length > maxAlternatives * 4) return null
  }
  return out
}

function findBraceGroup(text: string): { open: number; close: number; options: string[] } | null {
  for (let open = 0; open < text.length; open++) {
    if (text[open] === '[') {
      const end = classEnd(text, open)
      if (end !== null) open = end - 1
      continue
    }
    if (text[open] !== '{') continue
    const group = readGroup(text, open)
    if (group !== null) return group
  }
  return null
}

function readGroup(text: string, open: number): { open: number; close: number; options: string[] } | null {
  let depth = 0
  const commas: number[] = []
  for (let i = open; i < text.length; i++) {
    const char = text[i]
    if (char === '{') depth++
    else if (char === '}') depth--
    else if (char === ',' && depth === 1) commas.push(i)
    if (depth > 0) continue
    const body = text.slice(open + 1, i)
    if (commas.length === 0 || /[[\]()]/.test(body) || body.includes('..')) return null
    const bounds = [open, ...commas, i]
    const options = bounds.slice(1).map((end, k) => text.slice((bounds[k] ?? open) + 1, end))
    return { open, close: i, options }
  }
  return null
}

/**
 * Whether unmodelled syntax could match across a `/`: a `(` whose group (or, unclosed, whose rest
 * of the pattern) holds a `/`, which picomatch turns into regular-expression soup; a bracket or
 * brace opened before a `/` and closed after it; or a `|` outside parentheses, which picomatch
 * passes through as an alternation of the whole pattern (`a/|b` matches `b`).
 */
function mayCrossSlash(text: string): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '[') {
      const end = classEnd(text, i)
      if (end !== null) {
        i = end - 1
        continue
      }
    }
    if (char === '(') {
      const close = closingParen(text, i)
      if (text.slice(i, close < 0 ? text.length : close).includes('/')) return true
      depth++
    } else if (char === ')') depth = Math.max(0, depth - 1)
    else if (char === '|' && depth === 0) return true
    const closer = char === '[' ? ']' : char === '{' ? '}' : null
    if (closer === null) continue
    const slash = text.indexOf('/', i)
    if (slash >= 0 && text.indexOf(closer, slash) >= 0) return true
  }
  return false
}

/** The index of the `)` closing the `(` at `open`, or -1. */
function closingParen(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return i
  }
  return -1
}

// picomatch lets a trailing `/**` match nothing (`src/**` matches `src`) except right after a
// segment ending in a star (`a*/**` does not match `a`), but again when that segment came from a
// brace list (`{a*,b}/**` matches `a`). Zero-or-more is the sound reading for both; such shapes
// are only marked inexact.
function trailingGlobstarAfterStar(items: readonly PatternItem[]): boolean {
  let last = items.length - 1
  while (items[last]?.type === 'globstar') last--
  const before = items[last]
  return last < items.length - 1 && before?.type === 'segment' && before.tokens.at(-1)?.type === 'star'
}

function parseSegment(segment: string): PatternItem {
  if (segment === '**') return { type: 'globstar' }
  // picomatch reads three or more stars as one; reading them as `**` matches more and stays sound.
  if (/^\*{3,}$/.test(segment)) return approximateGlobstar
  const tokens: SegmentToken[] = []
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] ?? ''
    if (char === '*') {
      if (tokens.at(-1)?.type !== 'star') tokens.push({ type: 'star' })
      continue
    }
    if (char === '?') {
      tokens.push({ type: 'char', set: anyChar })
      continue
    }
    if (char === '[') {
      const end = classEnd(segment, i)
      if (end !== null) {
        tokens.push({ type: 'char', set: classSet(segment, i, end) })
        i = end - 1
        continue
      }
    }
    if (unmodelled.has(char)) return segment.includes('**') ? approximateGlobstar : approximateSegment
    const code = segment.charCodeAt(i)
    tokens.push({ type: 'char', set: { negated: false, ranges: [[code, code]] } })
  }
  const chars = tokens.map(singleChar)
  if (chars.some((code) => code === null)) return { type: 'segment', tokens }
  return { type: 'segment', tokens, literal: String.fromCharCode(...(chars as number[])) }
}

/** The code unit a token stands for when it stands for exactly one, else null. */
function singleChar(token: SegmentToken): number | null {
  if (token.type !== 'char' || token.set.negated || token.set.ranges.length !== 1) return null
  const [lo, hi] = token.set.ranges[0] ?? [0, -1]
  return lo === hi ? lo : null
}
