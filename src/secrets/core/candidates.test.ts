import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { allCorpusTranscripts } from '../../../test/helpers/capture-corpus.ts'
import { readTranscriptFile } from '../../../test/helpers/corpus.ts'
import { alnum, pem, random, samples } from '../../../test/helpers/secret-samples.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { secretCandidates, shapeDetectors } from './candidates.ts'
import { scrubSecretsExhaustively, scrubSecretsPrescanned } from './scrubber.ts'

const flagged = (text: string): string[] => {
  const { shapes } = secretCandidates(text)
  return shapeDetectors.filter((_, index) => (shapes & (1 << index)) !== 0)
}

test('each kind of secret flags its own detector', () => {
  const cases: [string, string][] = [
    [pem('RSA PRIVATE KEY', 2), 'private-key'],
    [samples.jwt, 'jwt'],
    [samples.anthropic, 'anthropic-key'],
    [samples.openaiProject, 'openai-key'],
    [samples.stripe[0] ?? '', 'stripe-key'],
    [samples.stripeWebhook, 'stripe-key'],
    [samples.github[0] ?? '', 'github-token'],
    [samples.githubFineGrained, 'github-token'],
    [samples.awsId, 'aws-access-key-id'],
    [samples.googleApi, 'google-api-key'],
    [samples.googleOauth, 'google-oauth-secret'],
    [samples.slackBot, 'slack-token'],
    [samples.slackWebhook, 'slack-webhook'],
    [`postgres://app:${random(12, alnum, 1)}@db/app`, 'url'],
    [`AUTHORIZATION ${random(30, alnum, 2)}`, 'authorization'],
    [`Bearer ${random(30, alnum, 3)}`, 'bearer'],
  ]
  for (const [text, detector] of cases) assert.ok(flagged(text).includes(detector), `${detector}: ${text}`)
})

test('a hint word counts only when a separator follows its name', () => {
  assert.equal(secretCandidates('API_KEY = x').assignment, true)
  assert.equal(secretCandidates('"password": "x"').assignment, true)
  assert.equal(secretCandidates('\\"client_secret\\":\\"x\\"').assignment, true)
  assert.equal(secretCandidates('the keyboard was authored with tokens in mind').assignment, false)
  assert.equal(secretCandidates('https://example.com/docs and a plain URL').shapes, 0)
})

test('an Authorization header flags both the header shape and the assignment rule', () => {
  const found = secretCandidates(`Authorization: Bearer ${random(30, alnum, 4)}`)
  assert.equal(found.assignment, true)
  assert.deepEqual(
    flagged(`Authorization: Bearer ${random(30, alnum, 4)}`).sort(),
    ['authorization', 'bearer'].sort(),
  )
})

test('triggers that overlap are all found (`PRIVATE KEY-----:` also holds a key name)', () => {
  const text = '-----BEGIN PRIVATE KEY-----: value'
  assert.equal(secretCandidates(text).assignment, true)
  assert.ok(flagged(text).includes('private-key'))
})

test('the pre-scan never changes what is scrubbed: glued fragments of every trigger', () => {
  const fragments = [
    pem('RSA PRIVATE KEY', 2),
    pem('PRIVATE KEY', 1, '\\n'),
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    samples.jwt,
    'eyJ',
    samples.anthropic,
    samples.openaiLegacy,
    'sk-',
    'sk-ant-',
    ...samples.stripe,
    samples.stripeWebhook,
    'sk_live_',
    ...samples.github,
    samples.githubFineGrained,
    'ghp_',
    samples.awsId,
    samples.awsSessionId,
    'AKIA',
    samples.googleApi,
    samples.googleOauth,
    samples.slackBot,
    'xoxb-',
    'xapp-1-',
    samples.slackWebhook,
    'https://hooks.slack.com/services/',
    '://',
    `://u:${random(10, alnum, 5)}@`,
    'https://example.com/path',
    'Authorization',
    'AUTHORIZATION',
    'authorization',
    'Bearer ',
    'bearer ',
    'Basic ',
    'Token ',
    '[REDACTED:github-token]',
    '[REDACTED:password]',
    random(24, alnum, 6),
    random(40, alnum, 7),
  ]
  const words = [
    'pass',
    'Password',
    'secret',
    'TOKEN',
    'credential',
    'key',
    'KEY',
    'auth',
    'pwd',
    'api_',
    '_',
  ]
  const punctuation = fc.string({ unit: fc.constantFrom(...' \n\t"\'`\\:=>,;{}[]()$-_./@'), maxLength: 4 })
  const piece = fc.oneof(
    fc.constantFrom(...fragments),
    fc.constantFrom(...words),
    punctuation,
    fc.string({ unit: fc.constantFrom(...'aAkKsStTeEyYJ0123456789'), maxLength: 6 }),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
      const text = pieces.join('')
      assert.equal(scrubSecretsPrescanned(text), scrubSecretsExhaustively(text))
    }),
    { numRuns: 5000 },
  )
})

test('the pre-scan never changes what is scrubbed: every event text of the corpus', () => {
  let texts = 0
  for (const source of allCorpusTranscripts()) {
    for (const event of readTranscriptFile(source.path, readerFor(source.vendor)).events) {
      assert.equal(scrubSecretsPrescanned(event.text), scrubSecretsExhaustively(event.text), source.path)
      texts++
    }
  }
  assert.ok(texts > 1000)
})
