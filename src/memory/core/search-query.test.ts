import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { buildSearchQuery, maxSearchTerms } from './search-query.ts'

test('several words must all occur, in any order', () => {
  const query = buildSearchQuery('lease  expiry\ttoken')
  assert.deepEqual(query.terms, ['lease', 'expiry', 'token'])
  assert.equal(query.match, '"lease" AND "expiry" AND "token"')
})

test('a quoted phrase stays one phrase beside the other words', () => {
  const query = buildSearchQuery('retry "exponential   back off" now')
  assert.deepEqual(query.terms, ['retry', 'exponential back off', 'now'])
  assert.equal(query.match, '"retry" AND "exponential back off" AND "now"')
})

test('an unclosed quote runs to the end of the text', () => {
  assert.deepEqual(buildSearchQuery('fix "the parser').terms, ['fix', 'the parser'])
})

test('FTS5 operators and punctuation typed by a user are plain text', () => {
  const query = buildSearchQuery('NEAR(a b) -draft col:value pre* AND OR NOT ^start {x} a"b')
  for (const term of query.terms) assert.ok(query.match.includes(`"${term.replaceAll('"', '""')}"`))
  assert.equal(query.match.split(' AND ').length, query.terms.length)
  assert.ok(query.terms.includes('AND') && query.terms.includes('NEAR(a'))
})

test('terms without letters or digits are dropped; nothing left is INVALID_INPUT', () => {
  assert.deepEqual(buildSearchQuery('* - lease :').terms, ['lease'])
  for (const text of ['', '   ', '* - ()', '""']) {
    assert.throws(
      () => buildSearchQuery(text),
      (error: unknown) => error instanceof SangamError && error.code === ErrorCode.InvalidInput,
    )
  }
})

test('non-Latin words are searchable', () => {
  assert.deepEqual(buildSearchQuery('बैठक café').terms, ['बैठक', 'café'])
})

test('more terms than the limit is INVALID_INPUT with the limit in the message', () => {
  const text = Array.from({ length: maxSearchTerms + 1 }, (_, i) => `w${i}`).join(' ')
  assert.throws(() => buildSearchQuery(text), new RegExp(`at most ${maxSearchTerms}`))
})

test('a refused search echoes at most a bounded part of what it was given', () => {
  assert.throws(
    () => buildSearchQuery('!'.repeat(100_000)),
    (error: Error) => error.message.length < 300 && error.message.includes('(100,000 characters)'),
  )
})

test('a NUL byte is refused before it reaches SQLite', () => {
  assert.throws(() => buildSearchQuery('fri\u0000days'), /a search cannot hold a NUL byte/)
})
