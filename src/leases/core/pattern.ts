import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'

/**
 * Lease patterns are repository-relative POSIX paths or picomatch globs. They are stored as
 * normalised here (case kept, for display) and compared case-insensitively through `patternKey`:
 * a lease must hold on macOS and Windows checkouts too, where `SRC/A.ts` is `src/a.ts`.
 */

/** Characters picomatch may give a meaning; a pattern without them names exactly one path. */
const globChars = /[*?[\]{}()!@+|]/

/** Whether `pattern` is a plain path rather than a glob. */
export function isLiteralPattern(pattern: string): boolean {
  return !globChars.test(pattern)
}

/**
 * The folded form every comparison uses; one lease per holder and key. Case-folded, and composed
 * (NFC): `café` typed on Linux and `café` read back from a macOS directory listing (NFD) are one
 * name to a person, so they are one path for leases.
 */
export function patternKey(pattern: string): string {
  return pattern.normalize('NFC').toLowerCase()
}

/**
 * Cleans a repository-relative pattern: `./` and empty or `.` segments go, `..` is resolved
 * lexically, a trailing `/` means "everything below" (`src/` → `src/**`), and `.` alone is the
 * whole repository (`**`). Throws INVALID_INPUT for what cannot be a lease: an empty pattern, one
 * that climbs out of the repository, a negation (`!src/**`), a backslash (an escape on POSIX, a
 * separator on Windows: ambiguous either way), a control character, or an unbalanced bracket
 * (`src/[a`: picomatch reads it as a literal, the overlap analysis as "anything", so it would keep
 * unrelated files out).
 */
export function normalisePattern(raw: string): string {
  const text = raw.trim()
  if (text === '') throw invalid(raw, 'it is empty')
  if (text.startsWith('/')) throw invalid(raw, 'it is absolute; give it relative to the repository root')
  if (text.includes('\\')) throw invalid(raw, 'backslashes are not allowed; use / between folders')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(text)) throw invalid(raw, 'it contains a control character')
  if (text.startsWith('!') && !text.startsWith('!(')) {
    throw invalid(raw, 'negated patterns cannot be leased; name what you want instead')
  }
  const unbalanced = unbalancedBracket(text)
  if (unbalanced !== null) {
    throw invalid(
      raw,
      `its "${unbalanced}" has no partner, so it would match files it does not name; ` +
        'close it, or write a literal bracket in a class of its own: [[] []] [(] [{]',
    )
  }
  const segments: string[] = []
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.length === 0) throw invalid(raw, 'it climbs out of the repository')
      segments.pop()
      continue
    }
    segments.push(segment)
  }
  if (text.endsWith('/') || segments.length === 0) segments.push('**')
  return segments.join('/')
}

/**
 * A glob that matches exactly `path` (repository-relative): each character picomatch could read
 * as syntax is wrapped in a one-character class (`a[1].ts` → `a[[]1[]].ts`), which picomatch and
 * the overlap analysis both read as that literal character.
 */
export function literalPattern(path: string): string {
  return path.replace(/[*?[\]{}()!@+|]/g, (char) => `[${char}]`)
}

/**
 * The one path `pattern` names when it is a plain path, or one `literalPattern` wrote (every
 * character picomatch could read as syntax in a one-character class); null for any other glob.
 * Such a pattern matches exactly that path, so the edit hook compares strings instead of
 * compiling it (leases/store/lease-regex.ts; a property test holds this to picomatch).
 */
export function literalPath(pattern: string): string | null {
  if (!escapedLiteral.test(pattern)) return null
  return pattern.replace(/\[(.)\]/g, '$1')
}

const escapedLiteral = /^(?:[^*?[\]{}()!@+|]|\[[*?[\]{}()!@+|]\])+$/

const closers: Record<string, string> = { '(': ')', '{': '}' }

/**
 * The first bracket of `text` left without its partner, or null when all pair up: `[…]` classes
 * (a `]` right after `[`, `[!` or `[^` belongs to the class, and `[:alpha:]` inside one is a POSIX
 * class), and nested `(…)` and `{…}`. Inside a class nothing else is syntax, which is how
 * `literalPattern` escapes a lone bracket (`[[]`).
 */
function unbalancedBracket(text: string): string | null {
  const open: string[] = []
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? ''
    if (char === '[') {
      const end = classEnd(text, i)
      if (end === null) return '['
      i = end
    } else if (char === '(' || char === '{') open.push(char)
    else if (char === ')' || char === '}') {
      const last = open.pop()
      if (last === undefined || closers[last] !== char) return last === undefined ? char : last
    } else if (char === ']') return ']'
  }
  return open.at(-1) ?? null
}

/** The index of the `]` closing the class that opens at `start`, or null. */
function classEnd(text: string, start: number): number | null {
  let i = start + 1
  if (text[i] === '!' || text[i] === '^') i++
  if (text[i] === ']') i++
  for (; i < text.length; i++) {
    if (text[i] === ']') return i
    if (text[i] === '[' && text[i + 1] === ':') {
      const close = text.indexOf(':]', i + 2)
      if (close !== -1) i = close + 1
    }
  }
  return null
}

function invalid(raw: string, why: string): SangamError {
  return new SangamError(ErrorCode.InvalidInput, `"${raw}" is not a usable lease pattern: ${why}`, {
    pattern: raw,
  })
}
