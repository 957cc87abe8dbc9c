import assert from 'node:assert/strict'
import { scrubSecrets } from '../../src/core/secrets/scrubber.ts'

/*
 * Realistic secrets of every kind the scrubber knows, for its tests. They are assembled at run time
 * from a seeded generator, so no file holds a string that a secret scanner (or a reader) could take
 * for a live credential.
 */
export const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
export const lower = 'abcdefghijklmnopqrstuvwxyz'
export const digits = '0123456789'
export const alnum = upper + lower + digits
export const b64url = `${alnum}-_`
export const b64 = `${alnum}+/`

export function random(length: number, alphabet: string, seed: number): string {
  let state = seed
  let out = ''
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648
    out += alphabet[state % alphabet.length]
  }
  // Real keys always mix in digits; make sure every sample does too.
  return `${out.slice(0, -2)}7${out.at(-1)}`
}

const join = (...parts: string[]): string => parts.join('')
export const samples = {
  anthropic: join('sk', '-ant-', 'api03-', random(93, b64url, 1), 'AA'),
  anthropicOauth: join('sk', '-ant-', 'oat01-', random(80, b64url, 2)),
  openaiProject: join('sk', '-proj-', random(120, b64url, 3)),
  openaiLegacy: join('sk', '-', random(20, alnum, 4), 'T3Blbk', 'FJ', random(20, alnum, 5)),
  openaiService: join('sk', '-svcacct-', random(60, b64url, 6)),
  github: ['ghp', 'gho', 'ghu', 'ghs', 'ghr'].map((prefix, i) =>
    join(prefix, '_', random(36, alnum, 10 + i)),
  ),
  githubFineGrained: join('github', '_pat_', random(22, alnum, 20), '_', random(59, alnum, 21)),
  awsId: join('AK', 'IA', random(16, upper + digits, 30)),
  awsSessionId: join('AS', 'IA', random(16, upper + digits, 31)),
  awsSecret: random(40, b64, 32),
  googleApi: join('AI', 'za', random(35, b64url, 40)),
  googleOauth: join('GOC', 'SPX-', random(28, b64url, 41)),
  slackBot: join(
    'xo',
    'xb-',
    random(12, digits, 50),
    '-',
    random(13, digits, 51),
    '-',
    random(24, alnum, 52),
  ),
  slackUser: join(
    'xo',
    'xp-',
    random(12, digits, 53),
    '-',
    random(12, digits, 54),
    '-',
    random(32, alnum, 55),
  ),
  slackWebhook: join(
    'https://hooks.',
    'slack.com/services/T',
    random(8, upper, 56),
    '/B',
    random(8, upper, 57),
    '/',
    random(24, alnum, 58),
  ),
  stripe: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'].map((prefix, i) =>
    join(prefix, random(24, alnum, 60 + i)),
  ),
  stripeWebhook: join('wh', 'sec_', random(32, alnum, 65)),
  jwt: join(
    'ey',
    'J',
    random(30, b64url, 70),
    '.',
    'ey',
    'J',
    random(60, b64url, 71),
    '.',
    random(43, b64url, 72),
  ),
}

export function pem(label: string, lineCount: number, newline = '\n'): string {
  const body = Array.from({ length: lineCount }, (_, i) => random(64, b64, 80 + i))
  return [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join(newline)
}

export function assertRedacted(input: string, expected: string): void {
  assert.equal(scrubSecrets(input), expected)
  assert.equal(scrubSecrets(expected), expected, 'scrubbing the result again changes nothing')
}
