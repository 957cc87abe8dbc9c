import { assert } from '../../shared/assert.ts'
import { assignmentType, literalSpan, redactAssignments, secretKeyStrength } from './assignment.ts'
import { secretCandidates, shapeDetectors } from './candidates.ts'
import {
  matchedShape,
  notAfter,
  placeholder,
  redactTokens,
  tokenShapeAlternatives,
  tokenType,
} from './shapes.ts'
import { redactVendored, shannonEntropy, vendoredRulesBySearch } from './vendored-scan.ts'

/**
 * Replaces every secret in captured text with a typed placeholder such as `[REDACTED:github-token]`,
 * so a search still tells what was there without telling the secret. Placeholders never match a
 * detector; a placeholder can still change what borders a neighbour (a ruleset pattern asks for
 * `\b`, which `…72[REDACTED` has and `…72ghu_` had not), so a text that changed is scrubbed again
 * until it stays the same, which makes scrubbing idempotent.
 *
 * Detectors: the vendored ruleset (gitleaks' provider rules, vendored-scan.ts), our own token and
 * context shapes (URLs with passwords, Authorization headers, command-line passwords, encoded
 * credentials), and `KEY=value` assignments of secret-named keys (assignment.ts).
 *
 * It runs on every captured field, so it is built for the common case of text without secrets: a
 * pre-scan (`candidates.ts`) finds which of our detectors could match, and the ruleset's keyword
 * pre-check (one Aho-Corasick pass) which of its rules could; most text has none. The rest is
 * scanned left to right once by one precompiled pattern holding the shapes that could match, then
 * by the ruleset's rules whose keywords occur, then once for assignments if a secret-named key is
 * followed by a separator. V8 runs the assignment pattern as a separate scan about three times
 * faster than as one more alternative.
 */
export function scrubSecrets(text: string): string {
  // A process that scrubs little (a `sangam post`, a lane's name) scans the plain way: building the
  // pre-scan's keyword automaton costs 50 ms, the plain scan of a short text a few (D397).
  if (plainScanned + text.length <= plainScanBudget) {
    plainScanned += text.length
    return scrubSecretsExhaustively(text)
  }
  return scrubSecretsPrescanned(text)
}

/**
 * How many characters a process scrubs the plain way before it builds the pre-scans: about what
 * the plain way scans in the time the keyword automaton takes to build (bench/secret-scrubber.ts),
 * so a process that scrubs more (capture) pays at most twice the best of the two.
 */
const plainScanBudget = 256 * 1024
let plainScanned = 0

/** `scrubSecrets` through the pre-scans whatever was scrubbed before (tests hold it to the plain way). */
export function scrubSecretsPrescanned(text: string): string {
  return untilStable(text, scrubOnce)
}

/** `scrubSecrets` for a field that may be absent (a cwd, a branch, a CLI version). */
export function scrubNullable(value: string | null): string | null {
  return value === null ? null : scrubSecrets(value)
}

/**
 * What `scrubSecrets` computes, without its pre-scans: every detector over the whole text (the
 * ruleset's rules chosen by a plain keyword search). The pre-scans only ever skip work, so the
 * two agree on every text; tests hold them to it.
 */
export function scrubSecretsExhaustively(text: string): string {
  return untilStable(text, (current) =>
    redactAssignments(
      redactBareSecrets(
        redactVendored(redactShapes(current, shapesFor(allShapes)), vendoredRulesBySearch(current)),
      ),
    ),
  )
}

function scrubOnce(text: string): string {
  const candidates = secretCandidates(text)
  const shapes = candidates.shapes
  const shaped = shapes === 0 ? text : redactShapes(text, shapesFor(shapes))
  const ruled = candidates.rules.length === 0 ? shaped : redactVendored(shaped, candidates.rules)
  const bare = candidates.longRun ? redactBareSecrets(ruled) : ruled
  return candidates.assignment ? redactAssignments(bare) : bare
}

/**
 * A bare 40-character base64 word of mixed case with digits, standing alone (not inside a longer
 * base64 or base64url run, a path or a dotted name): an AWS secret key in prose ("the secret key
 * is …"). Its entropy must be that of random base64, so a run of words is not taken for one.
 */
const bareSecret =
  /(?<![A-Za-z0-9+/=_.\-\]\\])(?=[A-Za-z0-9+/]{0,39}\d)(?=[A-Za-z0-9+/]{0,39}[a-z])(?=[A-Za-z0-9+/]{0,39}[A-Z])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=_\-[]|\.[A-Za-z0-9])/g

function redactBareSecrets(text: string): string {
  return text.replace(bareSecret, (found) =>
    shannonEntropy(found) >= bareEntropy ? placeholder('aws-secret-key') : found,
  )
}

/** Rarely more than two passes; the bound only guards against a cycle nobody has found. */
function untilStable(text: string, scrub: (text: string) => string): string {
  let current = text
  for (let pass = 0; pass < 8; pass++) {
    const next = scrub(current)
    if (next === current) return current
    current = next
  }
  return current
}

const bearerValue = '[A-Za-z0-9._~+/-]'
/** One shell word: bare, or quoted (the quotes stay outside the placeholder only when bare). */
const argument = `(?:[^\\s'"\`;|&<>()\\\\]+|'[^'\\n]+'|"[^"\\n]+")`
const word = notAfter('A-Za-z0-9_')
/** Context shapes: the secret is the part after a name that says what it is. */
const contextAlternatives = [
  // `scheme://user:password@host`: database URLs, git remotes with a token. The user may be empty
  // (`redis://:pw@host`); the password may hold `/` and `@` (it runs to the last `@` before a
  // host), but not be a port before a path (`localhost:3000/@vite/client`).
  '(?<url>:\\/\\/(?<urlUser>[^\\s:/@"\'<>[\\]]*):(?<urlPassword>(?!\\d+(?:[/?#]|$))[^\\s"\'<>[\\]]+)@)' +
    '(?=[A-Za-z0-9.-]+(?:[:/?#\\s"\'<>\\]),;]|$))',
  `(?<authorization>${word}[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]["']?[ \\t]*[:=][ \\t]*["'\`]?` +
    `(?:(?<authScheme>[Bb]earer|[Bb]asic|[Tt]oken)[ \\t]+(?<authValue>(?![$<])${bearerValue}{6,}=*)` +
    // Without a scheme, only what looks like a token: prose says "the Authorization: header".
    `|(?<authRaw>(?=${bearerValue}*\\d)${bearerValue}{16,}=*)))`,
  `(?<bearer>${word}[Bb]earer[ \\t]+(?<bearerValue>${bearerValue}{20,}=*))`,
  // Command lines that carry a password as an argument. Each value is the end of its match.
  `(?<cliFlag>(?<![\\w-])--(?<cliFlagName>[\\w-]*?(?:[Pp]ass(?:word|wd)?|[Ss]ecret|[Tt]oken|[Aa]pi-?[Kk]ey))[ \\t]+(?<cliFlagValue>(?!-)${argument}))`,
  `(?<mysql>(?<![\\w-])(?:mysql|mariadb)[\\w-]*\\b[^\\n|;&]*?[ \\t]-p(?<mysqlValue>(?![\\s-])${argument}))`,
  `(?<sshpass>(?<![\\w-])sshpass\\b[^\\n|;&]*?[ \\t]-p[ \\t]*(?<sshpassValue>(?![\\s-])${argument}))`,
  `(?<awsSet>(?<![\\w-])configure[ \\t]+set[ \\t]+(?<awsSetKey>[\\w.-]+)[ \\t]+(?<awsSetValue>${argument}))`,
  `(?<curlUser>(?<![\\w-])curl\\b[^\\n|;&]*?[ \\t](?:-u|--user|-U|--proxy-user)(?:[ \\t]+|=)?["']?[^\\s:'"]*:(?<curlUserValue>[^\\s'"]+))`,
  // Signed URLs: Azure SAS `sig=`, S3 and GCS presigned signatures.
  '(?<urlSig>[?&](?:sig|[Ss]ignature|[Xx]-[Aa]mz-[Ss]ignature|[Xx]-[Gg]oog-[Ss]ignature)=(?<urlSigValue>[A-Za-z0-9%+/=_-]{16,}))',
  // Docker's config.json: `"auth": "<base64 of user:password>"`, also JSON-escaped.
  '(?<dockerAuth>\\\\?"auth\\\\?"[ \\t]*:[ \\t]*\\\\?"(?<dockerAuthValue>[A-Za-z0-9+/]{8,}={0,2})(?=\\\\?"))',
  // Inline base64 decoded on the command line: `echo <b64> | base64 -d`, `base64 -d <<< <b64>`.
  '(?<b64Pipe>(?<![\\w-])(?:echo|printf)[ \\t]+(?:-[neE]+[ \\t]+)?["\']?(?<b64PipeValue>[A-Za-z0-9+/]{8,}={0,2})' +
    '(?=["\']?[ \\t]*\\|[ \\t]*base64[ \\t]+(?:-d|--decode|-D)\\b))',
  '(?<b64Here>base64[ \\t]+(?:-d|--decode|-D)[ \\t]*<<<[ \\t]*["\']?(?<b64HereValue>[A-Za-z0-9+/]{8,}={0,2}))',
  // Commands that print a token, with their output in the same text.
  '(?<tokenCmd>(?<![\\w-])(?:(?:heroku|gcloud)[ \\t]+auth[ \\t:]|gh[ \\t]auth[ \\t]|vault[ \\t]+print[ \\t]+token)[^\\n]*\\r?\\n[ \\t]*(?:\\$[ \\t]*)?' +
    '(?<tokenCmdValue>(?=[A-Za-z0-9._~+/=-]*\\d)[A-Za-z0-9._~+/=-]{20,}))',
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
  const context = contextValue(groups)
  if (context !== undefined) {
    const type = context.type === undefined ? undefined : (tokenType(unquote(context.value)) ?? context.type)
    if (type === undefined) return found
    return found.slice(0, found.length - context.value.length) + quoted(context.value, placeholder(type))
  }
  const value = groups.authValue ?? groups.authRaw ?? groups.bearerValue ?? ''
  const fallback = groups.authScheme?.toLowerCase() === 'basic' ? 'basic-auth' : 'bearer-token'
  return found.slice(0, found.length - value.length) + placeholder(tokenType(value) ?? fallback)
}

/**
 * The value a command-line or encoded-credential shape found, and the placeholder type it gets;
 * `type` undefined when the value turns out to be no secret (a reference, a word, a hash).
 */
function contextValue(
  groups: Record<string, string | undefined>,
): { readonly value: string; readonly type: string | undefined } | undefined {
  const literal = (value: string, key: string, type: string) =>
    literalSpan(unquote(value), key, '', 'strong') === undefined ? undefined : type
  if (groups.cliFlagValue !== undefined) {
    const name = groups.cliFlagName ?? ''
    return { value: groups.cliFlagValue, type: literal(groups.cliFlagValue, name, assignmentType(name)) }
  }
  if (groups.mysqlValue !== undefined)
    return { value: groups.mysqlValue, type: literal(groups.mysqlValue, 'password', 'password') }
  if (groups.sshpassValue !== undefined)
    return { value: groups.sshpassValue, type: literal(groups.sshpassValue, 'password', 'password') }
  if (groups.awsSetValue !== undefined) {
    const key = groups.awsSetKey ?? ''
    const strong = secretKeyStrength(key) === 'strong'
    return {
      value: groups.awsSetValue,
      type: strong ? literal(groups.awsSetValue, key, assignmentType(key)) : undefined,
    }
  }
  if (groups.curlUserValue !== undefined)
    return { value: groups.curlUserValue, type: literal(groups.curlUserValue, 'password', 'password') }
  if (groups.urlSigValue !== undefined) return { value: groups.urlSigValue, type: 'url-signature' }
  if (groups.dockerAuthValue !== undefined)
    return {
      value: groups.dockerAuthValue,
      type: decodesToCredential(groups.dockerAuthValue) ? 'basic-auth' : undefined,
    }
  const inline = groups.b64PipeValue ?? groups.b64HereValue
  if (inline !== undefined)
    return { value: inline, type: decodesToCredential(inline) ? 'base64-secret' : undefined }
  if (groups.tokenCmdValue !== undefined) return { value: groups.tokenCmdValue, type: 'token' }
  return undefined
}

/**
 * Random base64 of 40 characters carries about 5 bits per character (4.6 or more in 99% of
 * draws); a path or a run of words about 4.
 */
const bareEntropy = 4.5

/** Base64 that decodes to one printable word or a `user:password` pair: what a credential encodes. */
function decodesToCredential(value: string): boolean {
  let decoded: string
  try {
    decoded = atob(value)
  } catch {
    return false
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: binary data is what this refuses
  if (decoded.length < 4 || /[\u0000-\u001f\u007f-\uffff]/.test(decoded)) return false
  return decoded.includes(':') || !/\s/.test(decoded)
}

function unquote(value: string): string {
  const first = value[0]
  return (first === "'" || first === '"') && value.endsWith(first) && value.length >= 2
    ? value.slice(1, -1)
    : value
}

/** A quoted value keeps its quotes around the placeholder. */
function quoted(value: string, replacement: string): string {
  const first = value[0]
  return (first === "'" || first === '"') && value.endsWith(first) && value.length >= 2
    ? `${first}${replacement}${first}`
    : replacement
}
