import { placeholder, placeholderStart, tokenType } from './shapes.ts'

/**
 * The context rule of the secret scrubber: `KEY=value`, `key: value`, `"key": "value"` where the key
 * names a secret. The key stays, the value goes. Code mentions these names far more often than it
 * assigns literal secrets to them (`apiKey: process.env.API_KEY`, `token: string`,
 * `client = OpenAI(api_key=api_key)`), so a value is only redacted when it reads as a literal.
 *
 * The scan starts from the hint word and walks back to the start of the key: a pattern that had to
 * find the key's start at every word boundary was three times slower on real transcripts.
 */
export function redactAssignments(text: string): string {
  let out = ''
  let copied = 0
  hint.lastIndex = 0
  for (let match = hint.exec(text); match !== null; match = hint.exec(text)) {
    const groups = match.groups ?? {}
    const quote = groups.quote ?? ''
    const keyEnd = match.index + (groups.tail ?? '').length
    const start = keyStart(text, match.index, quote)
    if (start === undefined) continue
    value.lastIndex = match.index + match[0].length
    const found = value.exec(text)?.[0]
    if (found === undefined) continue
    const key = text.slice(start, keyEnd)
    const next = text[value.lastIndex] ?? ''
    const strength = secretKeyStrength(key)
    const span = strength === undefined ? undefined : literalSpan(found, key, next, strength)
    if (span === undefined) continue
    const secret = found.slice(span.start, span.end)
    const valueAt = match.index + match[0].length
    out += text.slice(copied, valueAt + span.start) + placeholder(tokenType(secret) ?? assignmentType(key))
    copied = valueAt + span.end
    hint.lastIndex = valueAt + found.length
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/**
 * From a hint word inside the key to the start of the value. The separator refuses `==`, `::` and
 * `=>`-less comparisons, so `token === x` and `Token::new` are not assignments; values stay on the
 * key's line, so a YAML mapping under `token:` is not taken for one.
 */
const hint =
  /(?<tail>(?:pass|secret|token|credential|key|auth|pwd)[\w.$-]*)(?<quote>\\?["'`]?)[ \t]*(?::=|=>|[:=])(?![=:])[ \t]*/gi

/** A quoted string (also JSON-escaped quotes), or a run of characters that cannot end a value. */
const value = new RegExp(
  [
    '"(?:[^"\\\\\\n]|\\\\.)*"',
    "'(?:[^'\\\\\\n]|\\\\.)*'",
    '`[^`\\n]*`',
    '\\\\"(?:(?!\\\\")[^\\n])*\\\\"',
    '[^\\s"\'`,;&<>(){}\\[\\]]+',
  ].join('|'),
  'y',
)

/** Character tests by code: this runs for every candidate key, where a regex per character shows. */
const isLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
const isDigit = (code: number): boolean => code >= 48 && code <= 57
/** `[A-Za-z_$]`: what a name starts with. */
const isKeyFirst = (code: number): boolean => isLetter(code) || code === 95 || code === 36
/** `[\w.$-]`: what a name is made of. */
const isKeyChar = (code: number): boolean => isKeyFirst(code) || isDigit(code) || code === 46 || code === 45
/** `[\w.\]]`: what may not come right before a key (see `notAfter`). */
const isWordBefore = (code: number): boolean =>
  isLetter(code) || isDigit(code) || code === 95 || code === 46 || code === 93

/**
 * Where the key that contains the hint at `hintAt` starts: the first place in the run of key
 * characters that can start a name (`--password` starts at `p`), with the quote the key closed
 * with opening it, and no word, dot or placeholder right before it.
 */
function keyStart(text: string, hintAt: number, quote: string): number | undefined {
  let run = hintAt
  while (run > 0 && isKeyChar(text.charCodeAt(run - 1))) run--
  for (let at = run; at <= hintAt; at++) {
    const before = text[at - 1]
    if (at > run && before !== '$' && before !== '-') continue
    if (!isKeyFirst(text.charCodeAt(at))) continue
    const open = at - quote.length
    if (text.slice(open, at) !== quote) return undefined
    return open > 0 && isWordBefore(text.charCodeAt(open - 1)) ? undefined : at
  }
  return undefined
}

const anywhereWord = /(?:password|passwd|passphrase|secret|credentials?)$/
const compoundKey = /^(?:api|access|secret|private|auth|master|signing|encryption|license|session)key$/
/** `<qualifier>_key` names that are credentials whatever their value looks like. */
const credentialQualifiers = new Set(
  'api access secret private auth master signing encryption license session client account app service admin deploy webhook hmac jwt'.split(
    ' ',
  ),
)

/** Splits `OPENAI_API_KEY`, `apiKey`, `x-api-key`, `SecretAccessKey` into lower-case words. */
export function keyWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
}

/**
 * How surely a key names a secret. Strong: a password, secret, passphrase or credentials word
 * anywhere; a token as the last word (`GITHUB_TOKEN`, `authToken`, but not `max_tokens`,
 * `token_count`); a credential's key (`API_KEY`, `secretKey`, `DB_PWD`, `SMTP_PASS`). Weak: any other
 * `<something>_key` or `_auth`, which is as often a map key (`sort_key`, `repo_key`); its value must
 * look like a credential too.
 */
export function secretKeyStrength(name: string): 'strong' | 'weak' | undefined {
  const words = keyWords(name)
  const last = words.at(-1)
  if (last === undefined) return undefined
  if (words.some((word) => anywhereWord.test(word))) return 'strong'
  if (last.endsWith('token') || compoundKey.test(last)) return 'strong'
  if (words.length < 2) return undefined
  if (last === 'pwd' || last === 'pass') return 'strong'
  if (last === 'key') {
    const qualifier = words.at(-2) ?? ''
    if (credentialQualifiers.has(qualifier)) return 'strong'
    return dataKeyQualifiers.has(qualifier) ? undefined : 'weak'
  }
  return last === 'auth' ? 'weak' : undefined
}

/**
 * `<qualifier>_key` names that are keys into data, never credentials: their values are digests,
 * ids and paths (`cache_key`, `idempotency_key`, `partitionKey`, `S3_BUCKET_KEY`, `hash_key`).
 */
const dataKeyQualifiers = new Set(
  'cache idempotency dedup dedupe partition sort range hash bucket object row primary foreign composite unique lookup map index shard routing group cursor storage file image asset translation i18n message event request trace correlation state sequence order'.split(
    ' ',
  ),
)

/** Which generic placeholder a secret-named key gets when its value is no known token shape. */
export function assignmentType(name: string): 'aws-secret-key' | 'password' | 'secret' {
  const words = keyWords(name)
  if (words.includes('secret') && words.includes('access')) return 'aws-secret-key'
  if (words.some((word) => /(?:password|passwd|passphrase|pwd)$/.test(word))) return 'password'
  return 'secret'
}

/** The part of a value to replace, as offsets into the value. */
export interface ValueSpan {
  readonly start: number
  readonly end: number
}

const neverSecret = /^(?:true|false|null|none|nil|undefined|include|omit|same-origin|required|optional)$/i
const reference = /^(?:\$\{?[A-Za-z_][\w.]*\}?|\$\{\{.*\}\}|%[\w.]+%?|<[^<>]*>|\*+|\.{3,}|…)$/
const numeric = /^[+-]?\d+(?:\.\d+)?$/
const version = /^[~^<>=v]*\d+(?:\.\d+){1,2}(?:[-+][\w.-]+)?$/
const codeChain = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+[!?]?$/
const identifier = /^[A-Za-z_$][\w$]*$/
const credentialLike = /^(?=.*\d)(?=.*[A-Za-z])[\w+/=.~-]{16,}$/
const filePath = /^(?:~|\.{1,2})?(?:\/[\w.@-]+){2,}\/?$/

/**
 * Decides whether `value` is a literal worth hiding; undefined when it is not. `next` is the
 * character after it: a call or an index (`getToken()`, `keys[0]`) is code. Upper-case keys are
 * environment variables, whose plain-word values (`DB_PASSWORD=postgres`) are literals; in code a
 * plain word after a lower-case key is another name (`password: string`).
 */
export function literalSpan(
  value: string,
  keyName: string,
  next: string,
  strength: 'strong' | 'weak',
): ValueSpan | undefined {
  const quote = /^\\?["'`]/.exec(value)?.[0]
  if (quote !== undefined) {
    const inner = value.slice(quote.length, value.length - quote.length)
    // A placeholder inside means an earlier detector already took the secret.
    if (inner.trim() === '' || inner.includes(placeholderStart) || isPlainWord(inner)) return undefined
    if (strength === 'weak' && !weakCredential(inner)) return undefined
    return { start: quote.length, end: value.length - quote.length }
  }
  if (isPlainWord(value) || numeric.test(value) || value.startsWith('$')) return undefined
  if (strength === 'weak' && !weakCredential(value)) return undefined
  if (next === '(' || next === '[' || codeChain.test(value)) return undefined
  if (filePath.test(value) && assignmentType(keyName) !== 'aws-secret-key') return undefined
  if (identifier.test(value) && !/\d/.test(value) && !isEnvironmentName(keyName)) return undefined
  return { start: 0, end: value.length }
}

const digest = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128})$/i
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const pathOrFileName = /^[\w.@~-]*(?:\/[\w.@~-]+)+\/?$|^[\w.@~/-]+\.[A-Za-z][A-Za-z0-9]{0,4}$/

/**
 * What a value under a weak key (`<something>_key`) must look like to be taken for a credential:
 * long and mixed, and not a digest, a UUID or a path, which is what such keys usually hold.
 */
function weakCredential(value: string): boolean {
  return credentialLike.test(value) && !digest.test(value) && !uuid.test(value) && !pathOrFileName.test(value)
}

/** Never a secret, quoted or not: references, placeholders like `<token>`, flags, versions. */
function isPlainWord(value: string): boolean {
  return reference.test(value) || neverSecret.test(value) || version.test(value)
}

function isEnvironmentName(name: string): boolean {
  return /[A-Z]/.test(name) && name === name.toUpperCase()
}
