import assert from 'node:assert/strict'
import { scrubSecrets } from '../../src/secrets/core/scrubber.ts'

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

export const join = (...parts: string[]): string => parts.join('')
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

/**
 * Like `random`, from a generator whose output looks random in every bit (mulberry32): `random`'s
 * low bits repeat, which gives power-of-two alphabets long runs ("AAAA") that no entropy check
 * would take for a secret.
 */
export function mixed(length: number, alphabet: string, seed: number): string {
  let state = seed >>> 0
  let out = ''
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    out += alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length]
  }
  return out
}

const hex = `${digits}abcdef`
const uuid = (seed: number): string =>
  [8, 4, 4, 4, 12].map((length, i) => mixed(length, hex, seed + i)).join('-')
const bech32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const b64encode = (text: string): string => btoa(text)

/**
 * Leaks seen to get through (issue 8), one or more of each class, and a broad sample of the
 * ruleset's providers: each entry is a text and the secret in it, which scrubbing must remove.
 */
export const leakShapes: readonly {
  readonly name: string
  readonly text: string
  readonly secret: string
}[] = (() => {
  const pw = join('Hu', 'nter', mixed(8, alnum, 100))
  const slashy = join('pa', '/ss', mixed(6, alnum, 101), '@w0rd')
  const npm = join('npm', '_', mixed(36, alnum, 102))
  const gitlab = join('gl', 'pat-', mixed(20, b64url.replace('-', ''), 103))
  const vault = join('hv', 's.', mixed(95, b64url, 104))
  const age = join('AGE-SECRET', '-KEY-1', mixed(58, bech32.toUpperCase(), 105))
  const dockerAuth = b64encode(join('deploy', ':', mixed(16, alnum, 106)))
  const awsSecret = mixed(40, b64, 107)
  const sas = join(mixed(30, b64, 108), '%2B', mixed(10, alnum, 109), '%3D')
  const heroku = uuid(110)
  const inlineCreds = b64encode(join('admin', ':', mixed(14, alnum, 111)))
  return [
    { name: 'URL password without a user', text: `redis://:${pw}@cache.internal:6379/0`, secret: pw },
    {
      name: 'URL password with / and @',
      text: `postgres://app:${slashy}@db.example.com/app`,
      secret: slashy,
    },
    { name: 'URL password with @ only', text: `amqp://guest:${pw}@x@mq:5672`, secret: pw },
    { name: 'bare npm token', text: `the token ${npm} was printed`, secret: npm },
    { name: 'npmrc line', text: `//registry.npmjs.org/:_authToken=${npm}`, secret: npm },
    { name: 'bare GitLab token', text: `use ${gitlab} for the API`, secret: gitlab },
    { name: 'bare Vault token', text: `vault login ${vault}`, secret: vault },
    { name: 'bare age key', text: `# created: 2026\n${age}\n`, secret: age },
    {
      name: 'Docker auth blob',
      text: `{"auths":{"ghcr.io":{"auth":"${dockerAuth}"}}}`,
      secret: dockerAuth,
    },
    { name: '*_PASS= line', text: `SMTP_PASS=${pw}\n`, secret: pw },
    { name: '*_PASS: yaml', text: `  db_pass: ${pw}\n`, secret: pw },
    { name: 'curl -u', text: `curl -u admin:${pw} https://api.example.com`, secret: pw },
    { name: 'curl --user', text: `curl -s --user "ci:${pw}" https://x.example.com`, secret: pw },
    { name: 'mysql -p', text: `mysql -h db -u root -p${pw} app < dump.sql`, secret: pw },
    { name: 'mysql --password value', text: `mysqldump --password ${pw} app`, secret: pw },
    { name: 'psql --password', text: `psql --password ${pw} -h db -U app`, secret: pw },
    {
      name: 'aws configure set',
      text: `aws configure set aws_secret_access_key ${awsSecret} --profile ci`,
      secret: awsSecret,
    },
    { name: 'sshpass -p', text: `sshpass -p '${pw}' ssh deploy@host`, secret: pw },
    {
      name: 'bare AWS secret in prose',
      text: `the secret key is ${awsSecret} for that user`,
      secret: awsSecret,
    },
    {
      name: 'Azure SAS sig',
      text: `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sp=r&sig=${sas}&se=2026`,
      secret: sas,
    },
    { name: 'base64 -d of credentials', text: `echo ${inlineCreds} | base64 -d`, secret: inlineCreds },
    { name: 'base64 --decode <<<', text: `base64 --decode <<< "${inlineCreds}"`, secret: inlineCreds },
    { name: 'Heroku UUID token', text: `heroku_api_key = ${heroku}`, secret: heroku },
    { name: 'Heroku auth:token output', text: `$ heroku auth:token\n${heroku}\n`, secret: heroku },
    { name: 'HEROKU_API_KEY env', text: `export HEROKU_API_KEY=${heroku}`, secret: heroku },
    ...[
      ['SendGrid key', join('SG', '.', mixed(22, b64url, 112), '.', mixed(43, b64url, 113))],
      ['Shopify token', join('shp', 'at_', mixed(32, hex, 114))],
      ['Twilio key', join('S', 'K', mixed(32, hex, 115))],
      ['Doppler token', join('dp', '.pt.', mixed(43, alnum, 116))],
      ['PyPI token', join('pypi-', 'AgEIcHlwaS5vcmc', mixed(60, b64url, 117))],
      ['Databricks token', join('dap', 'i', mixed(32, hex, 118))],
      ['DigitalOcean token', join('dop', '_v1_', mixed(64, hex, 119))],
      ['Postman key', join('PMAK', '-', mixed(24, hex, 120), '-', mixed(34, hex, 121))],
      ['Hugging Face token', join('hf', '_', mixed(34, lower + upper, 122))],
      ['Linear key', join('lin', '_api_', mixed(40, alnum, 123))],
    ].map(([name = '', token = '']) => ({
      name: `bare ${name}`,
      text: `found ${token} in the log`,
      secret: token,
    })),
  ]
})()

/** Values that name no secret: they were redacted once and must not be. */
export const notSecrets: readonly string[] = [
  `cache_key = "v2-${mixed(24, hex, 200)}"`,
  `cache_key: build-${mixed(10, digits, 201)}-linux-x64-node20`,
  `"idempotency_key": "${uuid(202)}"`,
  `idempotency_key=${uuid(203)}`,
  `partitionKey: "tenant-${mixed(6, digits, 204)}-2026-03"`,
  `{ partitionKey: 'orders#${mixed(12, digits, 205)}' }`,
  'S3_BUCKET_KEY=path.png',
  'S3_BUCKET_KEY=uploads/2026/avatars/user-12345.png',
  `hash_key: ${mixed(32, hex, 206)}`,
  `"hash_key": "${mixed(32, hex, 207)}"`,
  `sort_key = "${mixed(40, hex, 208)}"`,
  'commit 3f2a1c9e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
  `request id ${uuid(209)}`,
  'http://localhost:3000/@vite/client',
  'https://registry.npmjs.org/@types%2fnode/-/node-20.1.0.tgz',
  'see https://example.com:8080/path/@scope/pkg',
  'git@github.com:owner/repo.git',
  'src/leases/services/edit-matcher/Path2Config.ts',
  'the password prompt appears after `mysql -p`',
  'run `psql --password` and type it',
]
