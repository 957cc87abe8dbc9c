import assert from 'node:assert/strict'
import { test } from 'node:test'
import { quotedInputChars, quoteInput } from './quote-input.ts'

test('a short value is quoted as it is, control characters escaped', () => {
  assert.equal(quoteInput('0x10'), '"0x10"')
  assert.equal(quoteInput('a\u0000b'), '"a\\u0000b"')
})

test('a long value is cut and its length said', () => {
  const quoted = quoteInput('x'.repeat(100_000))
  assert.equal(quoted, `"${'x'.repeat(quotedInputChars)}"… (100,000 characters)`)
})
