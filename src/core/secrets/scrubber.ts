import { assert } from '../../shared/assert.ts'
import { redactAssignments } from './assignment.ts'
import { secretCandidates, shapeDetectors } from './candidates.ts'
import {
  matchedShape,
  notAfter,
  placeholder,
  redactTokens,
  tokenShapeAlternatives,
  tokenType,
} from './shapes.ts'

/**
 * Replaces every secret in captured text with a typed placeholder such as `[REDACTED:github-token]`,
 * so a search still tells what was there without telling the secret. Placeholders never match a
 * detector, which makes scrubbing idempotent.
 *
 * It runs on every captured field, so it is built for the common case of text without secrets: a
 * pre-scan (`secret-candidates.ts`) finds which detectors could match, and most text has none. The
 * rest is scanned left to right once by one precompiled pattern holding the shapes that could
 * match (tokens, keys, URLs with passwords, Authorization headers), then once for `KEY=value`
 * assignments if a secret-named key is followed by a separator. Two scans, not one: V8 runs the
 * assignment pattern as a separate scan about three times faster than as one more alternative.
 */
export function scrubSecrets(text: string): string {
  const candidates = secretCandidates(text)
  const shaped = candidates.shapes === 0 ? text : redactShapes(text, shapesFor(candidates.shapes))
  return candidates.assignment ? redactAssignments(shaped) : shaped
}

/**
 * What `scrubSecrets` computes, without its pre-scan: every detector over the whole text. The
 * pre-scan only ever skips work, so the two agree on every text; tests hold them to it.
 */
export function scrubSecretsExhaustively(text: string): string {
  return redactAssignments(redactShapes(text, shapesFor(allShapes)))
}

const bearerValue = '[A-Za-z0-9._~+/-]'
const word = notAfter('A-Za-z0-9_')
/** Context shapes: the secret is the part after a name that says what it is. */
const contextAlternatives = [
  // `scheme://user:password@host`: database URLs, git remotes with a token.
  '(?<url>:\\/\\/(?<urlUser>[^\\s:/@"\'<>[\\]]+):(?<urlPassword>[^\\s/@"\'<>[\\]]+)@)',
  `(?<authorization>${word}[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]["']?[ \\t]*[:=][ \\t]*["'\`]?` +
    `(?:(?<authScheme>[Bb]earer|[Bb]asic|[Tt]oken)[ \\t]+(?<authValue>(?![$<])${bearerValue}{6,}=*)` +
    // Without a scheme, only what looks like a token: prose says "the Authorization: header".
    `|(?<authRaw>(?=${bearerValue}*\\d)${bearerValue}{16,}=*)))`,
  `(?<bearer>${word}[Bb]earer[ \\t]+(?<bearerValue>${bearerValue}{20,}=*))`,
]

const alternatives = [...tokenShapeAlternatives, ...contextAlternatives]
assert(alternatives.length === shapeDetectors.length, 'secret-candidates.ts lists other detectors')
const allShapes = (1 << alternatives.length) - 1

/**
 * One pattern per set of detectors met (few sets occur: most text triggers one detector or two).
 * Leaving out alternatives that cannot match anywhere in the text changes no match.
 */
const patterns = new Map<number, RegExp>()

function shapesFor(mask: number): RegExp {
  let pattern = patterns.get(mask)
  if (pattern === undefined) {
    pattern = new RegExp(alternatives.filter((_, index) => (mask & (1 << index)) !== 0).join('|'), 'g')
    patterns.set(mask, pattern)
  }
  return pattern
}

/** An exec loop rather than `replace` with a callback: V8 runs that slow path several times slower. */
function redactShapes(text: string, shapes: RegExp): string {
  let out = ''
  let copied = 0
  shapes.lastIndex = 0
  for (let match = shapes.exec(text); match !== null; match = shapes.exec(text)) {
    out += text.slice(copied, match.index) + replacementFor(match[0], match.groups ?? {})
    copied = match.index + match[0].length
  }
  return copied === 0 ? text : out + text.slice(copied)
}

function replacementFor(found: string, groups: Record<string, string | undefined>): string {
  const token = matchedShape(groups)
  if (token !== undefined) return placeholder(token)
  if (groups.url !== undefined) return `://${redactTokens(groups.urlUser ?? '')}:${placeholder('password')}@`
  const value = groups.authValue ?? groups.authRaw ?? groups.bearerValue ?? ''
  const fallback = groups.authScheme?.toLowerCase() === 'basic' ? 'basic-auth' : 'bearer-token'
  return found.slice(0, found.length - value.length) + placeholder(tokenType(value) ?? fallback)
}
