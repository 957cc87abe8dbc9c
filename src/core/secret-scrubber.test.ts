import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { scrubSecrets } from './secret-scrubber.ts'

// Samples are assembled at run time from a seeded generator, so this file holds no string that a
// secret scanner (or a reader) could take for a live credential.
const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const lower = 'abcdefghijklmnopqrstuvwxyz'
const digits = '0123456789'
const alnum = upper + lower + digits
const b64url = `${alnum}-_`
const b64 = `${alnum}+/`

function random(length: number, alphabet: string, seed: number): string {
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
const samples = {
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

function pem(label: string, lineCount: number, newline = '\n'): string {
  const body = Array.from({ length: lineCount }, (_, i) => random(64, b64, 80 + i))
  return [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join(newline)
}

function assertRedacted(input: string, expected: string): void {
  assert.equal(scrubSecrets(input), expected)
  assert.equal(scrubSecrets(expected), expected, 'scrubbing the result again changes nothing')
}

test('Anthropic keys and OAuth tokens become anthropic-key', () => {
  assertRedacted(`export KEY_A=${samples.anthropic}`, 'export KEY_A=[REDACTED:anthropic-key]')
  assertRedacted(`token is ${samples.anthropicOauth}.`, 'token is [REDACTED:anthropic-key].')
})

test('OpenAI project, service-account and legacy keys become openai-key', () => {
  for (const key of [samples.openaiProject, samples.openaiLegacy, samples.openaiService]) {
    assertRedacted(`client = OpenAI("${key}")`, 'client = OpenAI("[REDACTED:openai-key]")')
  }
})

test('every GitHub token prefix becomes github-token', () => {
  for (const token of [...samples.github, samples.githubFineGrained]) {
    assertRedacted(
      `git clone https://x:${token}@github.com/o/r`,
      'git clone https://x:[REDACTED:password]@github.com/o/r',
    )
    assertRedacted(`GH=${token}`, 'GH=[REDACTED:github-token]')
    assertRedacted(`found ${token} in logs`, 'found [REDACTED:github-token] in logs')
  }
})

test('AWS access key ids and secret keys in context', () => {
  assertRedacted(
    `id ${samples.awsId} and ${samples.awsSessionId}`,
    'id [REDACTED:aws-access-key-id] and [REDACTED:aws-access-key-id]',
  )
  const ini = `[default]\naws_access_key_id = ${samples.awsId}\naws_secret_access_key = ${samples.awsSecret}\n`
  assertRedacted(
    ini,
    '[default]\naws_access_key_id = [REDACTED:aws-access-key-id]\naws_secret_access_key = [REDACTED:aws-secret-key]\n',
  )
  assertRedacted(
    `AWS_SECRET_ACCESS_KEY=${samples.awsSecret}`,
    'AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key]',
  )
  const cliOutput = `{\n  "Credentials": {\n    "AccessKeyId": "${samples.awsSessionId}",\n    "SecretAccessKey": "${samples.awsSecret}",\n    "SessionToken": "${random(200, b64, 33)}"\n  }\n}`
  assertRedacted(
    cliOutput,
    '{\n  "Credentials": {\n    "AccessKeyId": "[REDACTED:aws-access-key-id]",\n    "SecretAccessKey": "[REDACTED:aws-secret-key]",\n    "SessionToken": "[REDACTED:secret]"\n  }\n}',
  )
})

test('Google API keys and OAuth client secrets', () => {
  assertRedacted(`?key=${samples.googleApi}&q=1`, '?key=[REDACTED:google-api-key]&q=1')
  assertRedacted(
    `"client_secret": "${samples.googleOauth}"`,
    '"client_secret": "[REDACTED:google-oauth-secret]"',
  )
  assertRedacted(`"client_secret":"${random(24, b64url, 42)}"`, '"client_secret":"[REDACTED:secret]"')
})

test('Slack tokens and webhook URLs', () => {
  assertRedacted(
    `bot ${samples.slackBot} user ${samples.slackUser}`,
    'bot [REDACTED:slack-token] user [REDACTED:slack-token]',
  )
  assertRedacted(
    `curl -X POST ${samples.slackWebhook} -d @msg.json`,
    'curl -X POST [REDACTED:slack-webhook] -d @msg.json',
  )
})

test('Stripe secret, restricted and webhook keys', () => {
  for (const key of [...samples.stripe, samples.stripeWebhook]) {
    assertRedacted(`stripe.api_key = '${key}'`, "stripe.api_key = '[REDACTED:stripe-key]'")
    assertRedacted(`use ${key}`, 'use [REDACTED:stripe-key]')
  }
})

test('JWTs, alone and as a bearer token', () => {
  assertRedacted(`session=${samples.jwt}; Path=/`, 'session=[REDACTED:jwt]; Path=/')
  assertRedacted(`Authorization: Bearer ${samples.jwt}`, 'Authorization: Bearer [REDACTED:jwt]')
})

test('private-key blocks are removed whole, across lines', () => {
  for (const label of [
    'RSA PRIVATE KEY',
    'OPENSSH PRIVATE KEY',
    'EC PRIVATE KEY',
    'PRIVATE KEY',
    'ENCRYPTED PRIVATE KEY',
    'PGP PRIVATE KEY BLOCK',
  ]) {
    assertRedacted(`$ cat id\n${pem(label, 12)}\n$ ls`, '$ cat id\n[REDACTED:private-key]\n$ ls')
  }
  assertRedacted(
    `crlf\r\n${pem('RSA PRIVATE KEY', 5, '\r\n')}\r\nafter`,
    'crlf\r\n[REDACTED:private-key]\r\nafter',
  )
})

test('a private key inside JSON (escaped newlines) and a truncated one without its END line', () => {
  const escaped = pem('PRIVATE KEY', 6, '\\n')
  assertRedacted(
    `{"type": "service_account", "private_key": "${escaped}\\n"}`,
    '{"type": "service_account", "private_key": "[REDACTED:private-key]\\n"}',
  )
  assertRedacted(`key: ${escaped}`, 'key: [REDACTED:private-key]')
  const head = pem('RSA PRIVATE KEY', 20).split('\n').slice(0, 8).join('\n')
  assertRedacted(
    `$ head -8 id_rsa\n${head}\n$ echo done`,
    '$ head -8 id_rsa\n[REDACTED:private-key]\n$ echo done',
  )
})

test('Authorization headers keep the scheme and lose the credentials', () => {
  const token = random(40, alnum, 90)
  const basic = Buffer.from(`admin:${random(12, alnum, 91)}`).toString('base64')
  assertRedacted(
    `curl -H "Authorization: Bearer ${token}" x`,
    'curl -H "Authorization: Bearer [REDACTED:bearer-token]" x',
  )
  assertRedacted(`authorization: Basic ${basic}`, 'authorization: Basic [REDACTED:basic-auth]')
  assertRedacted(
    `-H 'Authorization: token ${samples.github[0]}'`,
    "-H 'Authorization: token [REDACTED:github-token]'",
  )
  assertRedacted(
    `{"Authorization": "Bearer ${token}"}`,
    '{"Authorization": "Bearer [REDACTED:bearer-token]"}',
  )
  assertRedacted(`headers.Authorization = ${token}`, 'headers.Authorization = [REDACTED:bearer-token]')
  assertRedacted(`sent bearer ${token} upstream`, 'sent bearer [REDACTED:bearer-token] upstream')
})

test('secret-named keys keep the key and lose a literal value, in every common syntax', () => {
  const value = random(24, alnum, 100)
  const cases: [string, string][] = [
    [`DATABASE_PASSWORD=${value}`, 'DATABASE_PASSWORD=[REDACTED:password]'],
    ['DB_PASSWORD=postgres', 'DB_PASSWORD=[REDACTED:password]'],
    [`export API_KEY="${value}"`, 'export API_KEY="[REDACTED:secret]"'],
    [`SLACK_SIGNING_SECRET: ${value}`, 'SLACK_SIGNING_SECRET: [REDACTED:secret]'],
    [`  password: ${value}`, '  password: [REDACTED:password]'],
    [`"apiKey": "${value}",`, '"apiKey": "[REDACTED:secret]",'],
    [`{\\"auth_token\\": \\"${value}\\"}`, '{\\"auth_token\\": \\"[REDACTED:secret]\\"}'],
    [`secret_key = '${value}'`, "secret_key = '[REDACTED:secret]'"],
    [`client(api_key="${value}", timeout=3)`, 'client(api_key="[REDACTED:secret]", timeout=3)'],
    [`GET /v1?access_token=${value}&page=2`, 'GET /v1?access_token=[REDACTED:secret]&page=2'],
    [`PGPASSWORD=${value} psql`, 'PGPASSWORD=[REDACTED:password] psql'],
    [`CREDENTIALS=${value}`, 'CREDENTIALS=[REDACTED:secret]'],
    [`X-Api-Key: ${value}`, 'X-Api-Key: [REDACTED:secret]'],
    [`$password = "${value}";`, '$password = "[REDACTED:password]";'],
    [`secret := "${value}"`, 'secret := "[REDACTED:secret]"'],
    [`:passwd => '${value}'`, ":passwd => '[REDACTED:password]'"],
    [`mysql_pwd=${value}`, 'mysql_pwd=[REDACTED:password]'],
    [`TOKEN=${value}\nNEXT=1`, 'TOKEN=[REDACTED:secret]\nNEXT=1'],
  ]
  for (const [input, expected] of cases) assertRedacted(input, expected)
})

test('a password in a connection URL is removed; the user and host stay', () => {
  const password = random(16, alnum, 110)
  assertRedacted(
    `DATABASE_URL=postgres://app:${password}@db.internal:5432/app`,
    'DATABASE_URL=postgres://app:[REDACTED:password]@db.internal:5432/app',
  )
  assertRedacted(
    `redis://default:${password}@localhost:6379`,
    'redis://default:[REDACTED:password]@localhost:6379',
  )
})

test('several secrets in one text are each replaced', () => {
  const input = `a ${samples.awsId} b ${samples.github[1]} c ${samples.anthropic} d`
  assertRedacted(
    input,
    'a [REDACTED:aws-access-key-id] b [REDACTED:github-token] c [REDACTED:anthropic-key] d',
  )
})

test('hashes, UUIDs and commit ids are not secrets', () => {
  const ordinary = [
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main)',
    'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'session 1af7fc5e-8455-4414-9ccd-011d40f70b2a started',
    'integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR==',
    'git log --format=%H abc1234..def5678',
    'requestId req_011CUJ2pQx7nK3bWzY8vR4mT',
  ]
  for (const text of ordinary) assert.equal(scrubSecrets(text), text)
})

test('"sk" inside words and kebab-case names is not a key', () => {
  const ordinary = [
    'the task-ant-colony-simulation-runner ran',
    'risk-assessment-framework-for-everyone',
    'install sk-learn-contrib-extras-for-everyone',
    'desk-organizer-deluxe-edition-2024-model',
    'ask-anything-assistant-with-long-name-v2',
  ]
  for (const text of ordinary) assert.equal(scrubSecrets(text), text)
})

test('base64 image data is not a secret, even when it happens to contain key-like letters', () => {
  const blob = [
    random(500, b64, 120),
    'AKIA',
    random(16, upper, 121),
    random(300, b64, 122),
    'AIza',
    random(35, b64url.replace(/[-_]/g, ''), 123),
    random(400, b64, 124),
  ].join('')
  for (const text of [
    `data:image/png;base64,${blob}==`,
    `{"type":"base64","media_type":"image/png","data":"${blob}"}`,
  ]) {
    assert.equal(scrubSecrets(text), text)
  }
})

test('code that names secrets without holding one is left alone', () => {
  const ordinary = [
    'const apiKey = process.env.OPENAI_API_KEY',
    'apiKey: options.apiKey ?? defaults.apiKey,',
    'interface Auth { token: string; password: string | undefined }',
    'client = OpenAI(api_key=api_key)',
    'const token = await getToken(scope)',
    'const TOKEN = readToken()',
    'if (password === input) return',
    'let t = Token::new(kind)',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: workflow, shell and JS source as text
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'GITHUB_TOKEN=$GITHUB_TOKEN gh pr list',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: workflow, shell and JS source as text
    'export OPENAI_API_KEY="${OPENAI_API_KEY}"',
    'api_key: <your-api-key>',
    'password: "***"',
    'fetch(url, { credentials: "include" })',
    '"usage": {"input_tokens": 1234, "output_tokens": 56, "max_tokens": 4096}',
    'primary_key: id\nsort_key: created_at',
    '- key: value',
    'GOOGLE_APPLICATION_CREDENTIALS=/home/me/.config/gcloud/adc.json',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: workflow, shell and JS source as text
    'headers: { Authorization: `Bearer ${token}` }',
    'Bearer tokens are sent in the Authorization header.',
    'token:\n  type: string',
    'secrets: inherit',
    'let password = ""',
    'keys = Object.keys(config)',
    '"jsonwebtoken": "^9.0.2",',
    '--password-file=/run/secrets/db',
  ]
  for (const text of ordinary) assert.equal(scrubSecrets(text), text, text)
})

test('text without any trigger comes back as the same string', () => {
  const prose = 'Refactor the parser so that multi-object lines split cleanly; run the tests after.'
  assert.equal(scrubSecrets(prose), prose)
  assert.equal(scrubSecrets(''), '')
})

test('scrubbing is idempotent and every placeholder survives unchanged, whatever surrounds the secrets', () => {
  const secrets = [
    samples.anthropic,
    samples.openaiProject,
    samples.github[2] ?? '',
    samples.awsId,
    samples.googleApi,
    samples.slackBot,
    samples.stripe[0] ?? '',
    samples.jwt,
    pem('RSA PRIVATE KEY', 3),
    `API_KEY=${random(20, alnum, 130)}`,
    `"password": "${random(12, alnum, 131)}"`,
    `Authorization: Bearer ${random(30, alnum, 132)}`,
    `postgres://u:${random(10, alnum, 133)}@h/db`,
  ]
  const noise = fc.string({
    unit: fc.constantFrom(...' \n\t"\':=,;{}[]()$-_./aAkKsStT0123456789'),
    maxLength: 12,
  })
  const piece = fc.oneof(
    noise,
    fc.constantFrom(...secrets),
    fc.constantFrom('token', 'key', 'Bearer', 'password', '://'),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const glued = scrubSecrets(pieces.join(''))
      assert.equal(scrubSecrets(glued), glued)
      const spaced = scrubSecrets(pieces.join(' '))
      assert.equal(scrubSecrets(spaced), spaced)
      for (const secret of secrets.slice(0, 9)) assert.ok(!spaced.includes(secret), 'a whole secret survived')
    }),
    { numRuns: 2000 },
  )
})

test('a token used as the user of a URL is removed too', () => {
  const token = samples.github[0] ?? ''
  assertRedacted(
    `https://${token}:x-oauth-basic@github.com/o/r.git`,
    'https://[REDACTED:github-token]:[REDACTED:password]@github.com/o/r.git',
  )
  assertRedacted(`https://${token}@github.com/o/r.git`, 'https://[REDACTED:github-token]@github.com/o/r.git')
})

test('a key that only might be a credential (`<anything>_key`) loses its value only when it looks like one', () => {
  const credential = random(32, alnum, 150)
  assertRedacted(`STRIPE_KEY=${credential}`, 'STRIPE_KEY=[REDACTED:secret]')
  assertRedacted(`"license_key": "${credential}"`, '"license_key": "[REDACTED:secret]"')
  assertRedacted(`"hmacKey": "${credential}"`, '"hmacKey": "[REDACTED:secret]"')
  for (const text of [
    '"repo_key": "gh/org/repo"',
    'repo_key: local/001',
    'cache_key = "user:123"',
    'exportKey := "./"',
  ]) {
    assert.equal(scrubSecrets(text), text)
  }
})

test('a quoted all-digit password is still a password', () => {
  assertRedacted('"password": "123456"', '"password": "[REDACTED:password]"')
})
