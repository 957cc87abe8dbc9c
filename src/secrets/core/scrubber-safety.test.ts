import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import {
  alnum,
  assertRedacted,
  b64,
  b64url,
  pem,
  random,
  samples,
  upper,
} from '../../../test/helpers/secret-samples.ts'
import { scrubSecrets } from './scrubber.ts'

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
