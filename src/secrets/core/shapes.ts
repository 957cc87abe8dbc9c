/** Secret tokens whose shape alone gives them away, and the placeholder that replaces them. */

export function placeholder(type: string): string {
  return `[REDACTED:${type}]`
}

export const placeholderStart = '[REDACTED:'

export interface TokenShape {
  readonly type: string
  readonly source: string
}

/**
 * A token must not continue a word. `]` counts as a word character too: it ends every placeholder,
 * and a second scrub must see, after a placeholder, what the first saw after the secret.
 */
export const notAfter = (chars: string): string => `(?<![${chars}\\]])`
/** Likewise a token must not run on into a word, and `[` starts every placeholder. */
const notBefore = (chars: string): string => `(?![${chars}\\[])`

const b64url = 'A-Za-z0-9_\\-'

export const tokenShapes: readonly TokenShape[] = [
  {
    type: 'private-key',
    source:
      '-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----' +
      // With its END line, everything up to it (real or JSON-escaped newlines). The search stops at
      // the next BEGIN and after 16 KiB (keys are a few KiB), so a listing of many headers without
      // END lines (grep output) stays linear.
      '(?:(?:(?!-----BEGIN)[\\s\\S]){0,16384}?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----' +
      // Without one (a truncated listing), the whole base64 lines and header lines that follow.
      '|(?:(?:\\r?\\n|\\\\r?\\\\n)+(?:[A-Za-z0-9+/=]{16,}(?=\\r?\\n|\\\\[rn]|$)|[A-Za-z-]+: [^\\r\\n\\\\]*))*)',
  },
  { type: 'jwt', source: `${notAfter(b64url)}eyJ[${b64url}]{8,}\\.eyJ[${b64url}]{8,}\\.[${b64url}]*` },
  { type: 'anthropic-key', source: `${notAfter(b64url)}sk-ant-[${b64url}]{20,}` },
  // A digit is required so kebab-case words after `sk-` are not keys.
  { type: 'openai-key', source: `${notAfter(b64url)}sk-(?!ant-)(?=[${b64url}]*\\d)[${b64url}]{20,}` },
  {
    type: 'stripe-key',
    source: `${notAfter('A-Za-z0-9_')}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,})`,
  },
  {
    type: 'github-token',
    source: `${notAfter('A-Za-z0-9_')}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`,
  },
  {
    type: 'aws-access-key-id',
    source: `${notAfter('A-Za-z0-9+/')}(?:AKIA|ASIA)[A-Z0-9]{16}${notBefore('A-Za-z0-9')}`,
  },
  { type: 'google-api-key', source: `${notAfter(`${b64url}+/`)}AIza[${b64url}]{35}${notBefore(b64url)}` },
  { type: 'google-oauth-secret', source: `${notAfter(b64url)}GOCSPX-[${b64url}]{20,}` },
  {
    type: 'slack-token',
    source: `${notAfter(b64url)}(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})`,
  },
  {
    type: 'slack-webhook',
    source: 'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{10,}',
  },
]

/** Named groups `t0`, `t1`, … in the order of `tokenShapes`. */
export const tokenShapeAlternatives = tokenShapes.map((shape, index) => `(?<t${index}>${shape.source})`)

/** Which shape matched, given the groups of a pattern built from `tokenShapeAlternatives`. */
export function matchedShape(groups: Record<string, string | undefined>): string | undefined {
  const index = tokenShapes.findIndex((_, i) => groups[`t${i}`] !== undefined)
  return tokenShapes[index]?.type
}

const exactShapes = tokenShapes.map((shape) => ({
  type: shape.type,
  pattern: new RegExp(`^(?:${shape.source})$`),
}))

/** The shape of a whole value, so `Bearer sk-ant-…` says `anthropic-key` rather than `bearer-token`. */
export function tokenType(value: string): string | undefined {
  return exactShapes.find((shape) => shape.pattern.test(value))?.type
}

const anyShape = new RegExp(tokenShapeAlternatives.join('|'), 'g')

/**
 * Replaces token shapes only: for text a context rule keeps, which can itself be a token (the user of
 * `https://<github token>:x-oauth-basic@github.com`).
 */
export function redactTokens(text: string): string {
  return text.replace(anyShape, (...args) => placeholder(matchedShape(args.at(-1)) ?? 'secret'))
}
