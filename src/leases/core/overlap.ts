import { LruMap } from '../../shared/lru-map.ts'
import { type CharSet, type PatternItem, type PatternShape, parsePattern, type SegmentToken } from './glob.ts'
import { patternKey } from './pattern.ts'

/**
 * Whether two lease patterns conflict: whether some path could match both. The answer is sound
 * (never "no" when a path matches both under picomatch with `dot: true` on case-folded text) and,
 * for the syntax `lease-glob.ts` models exactly, also complete: a "yes" comes with a path that
 * matches both. Over syntax it only approximates, "yes" may be conservative.
 *
 * Each segment glob is a small automaton over characters (`*` loops, classes and literals are
 * character sets); two segments overlap when the product automaton reaches acceptance after at
 * least one character. Whole patterns are sequences of segments and `**`, intersected the same
 * way one segment at a time, where `**` may take zero or more segments.
 */
export interface Overlap {
  readonly overlaps: boolean
  /** A (folded) path both patterns match; null when there is none or the answer is conservative. */
  readonly witness: string | null
}

export function patternsOverlap(a: string, b: string): boolean {
  return findOverlap(a, b).overlaps
}

export function findOverlap(a: string, b: string): Overlap {
  const key = `${patternKey(a)}\u0000${patternKey(b)}`
  const known = answers.get(key)
  if (known !== undefined) return known
  const answer = analyse(a, b)
  answers.set(key, answer)
  return answer
}

/**
 * Answers by folded pattern pair: every claim compares its patterns with the same live leases.
 * Bounded, since this runs for as long as the daemon or the team server's Durable Object does.
 */
const answers = new LruMap<string, Overlap>(16_384)

function analyse(a: string, b: string): Overlap {
  const left = shapeOf(a)
  const right = shapeOf(b)
  if (left.universal || right.universal) return { overlaps: true, witness: null }
  for (const x of left.alternatives) {
    for (const y of right.alternatives) {
      if (differByLeadingLiterals(x, y)) continue
      const witness = sequenceWitness(x, y)
      if (witness === null) continue
      // Real paths never hold `.` or `..` segments, which picomatch refuses; the shapes do not model that.
      const exact = left.exact && right.exact && !/(^|\/)\.\.?(\/|$)/.test(witness)
      return { overlaps: true, witness: exact ? witness : null }
    }
  }
  return { overlaps: false, witness: null }
}

/** Parsed shapes by folded pattern; arbitration compares the same few patterns over and over. */
const shapes = new LruMap<string, PatternShape>(4096)

function shapeOf(pattern: string): PatternShape {
  const key = patternKey(pattern)
  const known = shapes.get(key)
  if (known !== undefined) return known
  const shape = parsePattern(key)
  shapes.set(key, shape)
  return shape
}

/** Most patterns start with plain folders; two that part ways there share nothing (`src/…` vs `docs/…`). */
function differByLeadingLiterals(a: readonly PatternItem[], b: readonly PatternItem[]): boolean {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a[i]
    const y = b[i]
    if (x?.type !== 'segment' || y?.type !== 'segment' || x.literal === undefined || y.literal === undefined)
      return false
    if (x.literal !== y.literal) return true
  }
  return false
}

const slash = 0x2f
const star: SegmentToken = { type: 'star' }

/** Breadth-first search of the product of two item sequences; states are (i, j, consumed). */
function sequenceWitness(a: readonly PatternItem[], b: readonly PatternItem[]): string | null {
  const width = b.length + 1
  const states = (a.length + 1) * width * 2
  const from = new Int32Array(states).fill(-1)
  const step = new Array<string | null>(states).fill(null)
  const start = 0
  from[start] = start
  const queue = [start]
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] ?? 0
    const consumed = state & 1
    const i = Math.floor((state >> 1) / width)
    const j = (state >> 1) % width
    if (i === a.length && j === b.length && consumed === 1) return rebuild(state, from, step, '/')
    const x = a[i]
    const y = b[j]
    const visit = (ni: number, nj: number, nc: number, segment: string | null): void => {
      const next = (ni * width + nj) * 2 + nc
      if (from[next] !== -1) return
      from[next] = state
      step[next] = segment
      queue.push(next)
    }
    if (x?.type === 'globstar' || (x?.type === 'segment' && x.optional)) visit(i + 1, j, consumed, null)
    if (y?.type === 'globstar' || (y?.type === 'segment' && y.optional)) visit(i, j + 1, consumed, null)
    if (x === undefined || y === undefined) continue
    const literal = bothLiteral(x, y)
    const segment = literal === undefined ? segmentWitness(tokensOf(x), tokensOf(y)) : literal
    if (segment === null) continue
    visit(x.type === 'globstar' ? i : i + 1, y.type === 'globstar' ? j : j + 1, 1, segment)
  }
  return null
}

/** Two literal segments meet only if equal: the common case, answered without an automaton. */
function bothLiteral(x: PatternItem, y: PatternItem): string | null | undefined {
  if (x.type !== 'segment' || y.type !== 'segment' || x.literal === undefined || y.literal === undefined)
    return undefined
  return x.literal === y.literal ? x.literal : null
}

function tokensOf(item: PatternItem): readonly SegmentToken[] {
  return item.type === 'globstar' ? [star] : item.tokens
}

/** A non-empty string both segment globs match, or null. States are (i, j, consumed) again. */
function segmentWitness(a: readonly SegmentToken[], b: readonly SegmentToken[]): string | null {
  const width = b.length + 1
  const states = (a.length + 1) * width * 2
  const from = new Int32Array(states).fill(-1)
  const step = new Array<string | null>(states).fill(null)
  from[0] = 0
  const queue = [0]
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] ?? 0
    const consumed = state & 1
    const i = Math.floor((state >> 1) / width)
    const j = (state >> 1) % width
    if (i === a.length && j === b.length && consumed === 1) return rebuild(state, from, step, '')
    const x = a[i]
    const y = b[j]
    const visit = (ni: number, nj: number, nc: number, char: string | null): void => {
      const next = (ni * width + nj) * 2 + nc
      if (from[next] !== -1) return
      from[next] = state
      step[next] = char
      queue.push(next)
    }
    if (x?.type === 'star') visit(i + 1, j, consumed, null)
    if (y?.type === 'star') visit(i, j + 1, consumed, null)
    if (x === undefined || y === undefined) continue
    const code = commonChar(setOf(x), setOf(y))
    if (code === null) continue
    visit(x.type === 'star' ? i : i + 1, y.type === 'star' ? j : j + 1, 1, String.fromCharCode(code))
  }
  return null
}

const anyChar: CharSet = { negated: true, ranges: [] }

function setOf(token: SegmentToken): CharSet {
  return token.type === 'star' ? anyChar : token.set
}

function rebuild(end: number, from: Int32Array, step: readonly (string | null)[], joiner: string): string {
  const parts: string[] = []
  for (let state = end; state !== 0; state = from[state] ?? 0) {
    const part = step[state]
    if (part !== null && part !== undefined) parts.push(part)
  }
  return parts.reverse().join(joiner)
}

/** Characters tried first for a witness: plain ones, so the witness reads like a path. */
const preferred = [...'abcdefghijklmnopqrstuvwxyz0123456789_-'].map((char) => char.charCodeAt(0))

/** A code unit (never `/`) in both sets, or null when they share none. */
function commonChar(x: CharSet, y: CharSet): number | null {
  if (x.negated && y.negated) return firstOutside([...x.ranges, ...y.ranges])
  if (x.negated) return commonChar(y, x)
  for (const [lo, hi] of x.ranges) {
    const code = y.negated ? firstOutsideFrom(lo, hi, y.ranges) : firstInside(lo, hi, y.ranges)
    if (code !== null) return code
  }
  return null
}

function contains(ranges: CharSet['ranges'], code: number): boolean {
  return ranges.some(([lo, hi]) => lo <= code && code <= hi)
}

function firstOutside(ranges: CharSet['ranges']): number | null {
  const plain = preferred.find((code) => !contains(ranges, code))
  return plain ?? firstOutsideFrom(0x20, 0xffff, ranges)
}

/** The first code unit in [lo, hi] that is not `/` and not in `ranges`. */
function firstOutsideFrom(lo: number, hi: number, ranges: CharSet['ranges']): number | null {
  let code = lo
  while (code <= hi) {
    const covering = ranges.find(([from, to]) => from <= code && code <= to)
    if (covering !== undefined) code = covering[1] + 1
    else if (code === slash) code++
    else return code
  }
  return null
}

function firstInside(lo: number, hi: number, ranges: CharSet['ranges']): number | null {
  let best: number | null = null
  for (const [from, to] of ranges) {
    const start = Math.max(lo, from)
    const end = Math.min(hi, to)
    if (start > end) continue
    const plain = preferred.find((code) => start <= code && code <= end && code !== slash)
    const candidate = plain ?? (start === slash ? (start < end ? start + 1 : null) : start)
    if (candidate !== null && (best === null || plain !== undefined)) best = candidate
    if (plain !== undefined) return plain
  }
  return best
}
