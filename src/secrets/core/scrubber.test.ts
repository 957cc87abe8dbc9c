import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { test } from 'node:test'
import {
  alnum,
  assertRedacted,
  b64,
  b64url,
  leakShapes,
  notSecrets,
  pem,
  random,
  samples,
} from '../../../test/helpers/secret-samples.ts'
import { scrubSecrets, scrubSecretsPrescanned } from './scrubber.ts'
import { placeholderStart } from './shapes.ts'

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

test('a token used as the user of a URL is removed too', () => {
  const token = samples.github[0] ?? ''
  assertRedacted(
    `https://${token}:x-oauth-basic@github.com/o/r.git`,
    'https://[REDACTED:github-token]:[REDACTED:password]@github.com/o/r.git',
  )
  assertRedacted(`https://${token}@github.com/o/r.git`, 'https://[REDACTED:github-token]@github.com/o/r.git')
})

test('a quoted all-digit password is still a password', () => {
  assertRedacted('"password": "123456"', '"password": "[REDACTED:password]"')
})

test('a listing of key headers without their bodies keeps the file names (grep output)', () => {
  const listing = Array.from(
    { length: 500 },
    (_, i) => `fixtures/k${i}.pem:-----BEGIN PRIVATE KEY-----`,
  ).join('\n')
  const expected = Array.from({ length: 500 }, (_, i) => `fixtures/k${i}.pem:[REDACTED:private-key]`).join(
    '\n',
  )
  assertRedacted(listing, expected)
})

test('every shape that got through before is scrubbed: bare tokens, URL and command-line passwords, encoded credentials', () => {
  for (const { name, text, secret } of leakShapes) {
    const scrubbed = scrubSecrets(text)
    assert.ok(!scrubbed.includes(secret), `${name}: ${scrubbed}`)
    assert.ok(scrubbed.includes(placeholderStart), name)
    assert.equal(scrubSecrets(scrubbed), scrubbed, `${name}: scrubbing again changes nothing`)
  }
})

test('keys into data are not credentials: cache, idempotency, partition, bucket and hash keys keep their values', () => {
  for (const text of notSecrets) assert.equal(scrubSecrets(text), text)
})

test('a short text carrying any kind of secret is scrubbed at once, without building the keyword automaton', () => {
  const secrets = Object.entries(samples).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((secret, i) => ({ name: `${name}${i}`, secret })),
  )
  const texts = [
    // A bare AWS secret key is one only where its name says so.
    ...secrets.map(({ name, secret }) =>
      name.startsWith('awsSecret') ? `AWS_SECRET_ACCESS_KEY=${secret}` : `use ${secret} now`,
    ),
    ...leakShapes.map(({ text }) => text),
  ]
  // A fresh process, as a `sangam post` is: what this file scrubbed before does not count.
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { scrubSecrets } from ${JSON.stringify(new URL('./scrubber.ts', import.meta.url).href)}
       import { keywordScannerBuilt } from ${JSON.stringify(new URL('./candidates.ts', import.meta.url).href)}
       const texts = JSON.parse(process.argv[1])
       const scrubbed = texts.map((text) => scrubSecrets(text))
       process.stdout.write(JSON.stringify({ scrubbed, built: keywordScannerBuilt() }))`,
      JSON.stringify(texts),
    ],
    { encoding: 'utf8' },
  )
  assert.equal(child.status, 0, child.stderr)
  const { scrubbed, built } = JSON.parse(child.stdout) as { scrubbed: string[]; built: boolean }
  assert.equal(built, false, 'no automaton for a few short texts')
  texts.forEach((text, i) => {
    assert.equal(scrubbed[i], scrubSecretsPrescanned(text), text)
    assert.notEqual(scrubbed[i], text, `a secret is removed from ${text}`)
  })
  for (const [i, { name, secret }] of secrets.entries()) assert.ok(!scrubbed[i]?.includes(secret), name)
})
