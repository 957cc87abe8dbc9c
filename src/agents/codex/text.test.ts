import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fingerprint } from '../text-fingerprint.ts'
import { boundChars, contentText, joinBounded, maxBuiltText, toolOutputText } from './text.ts'

test('bounding never splits a surrogate pair', () => {
  assert.equal(boundChars('ab😀', 3), 'ab')
  assert.equal(boundChars('ab😀', 4), 'ab😀')
  assert.equal(boundChars('abc', 0), '')
})

test('joining stops at the bound instead of building the whole string', () => {
  const piece = 'y'.repeat(40 * 1024)
  const joined = joinBounded([piece, piece, piece, '', piece], '\n')
  assert.equal(joined.length, maxBuiltText)
  assert.equal(joinBounded(['a', '', 'b'], '\n'), 'a\nb')
})

test('content text keeps the parts of the asked types only', () => {
  const content = [
    { type: 'output_text', text: 'one' },
    { type: 'input_image', image_url: 'data:…' },
    { type: 'encrypted_content', encrypted_content: 'gAAA' },
    { type: 'output_text', text: 'two' },
    'stray',
    { type: 'output_text', text: 7 },
  ]
  assert.equal(contentText(content, new Set(['output_text'])), 'one\ntwo')
  assert.equal(contentText('not an array', new Set(['output_text'])), '')
})

test('a JSON-in-string output past the unwrap limit is kept raw, not parsed', () => {
  const big = JSON.stringify({ output: 'z'.repeat(300 * 1024) })
  assert.ok(toolOutputText(big).startsWith('{"output":"zzz'))
  assert.equal(toolOutputText(big).length, maxBuiltText)
  assert.equal(toolOutputText(JSON.stringify({ output: 'small' })), 'small')
  assert.equal(toolOutputText('{"output":"","metadata":{"exit_code":0}}'), '')
  assert.equal(toolOutputText('{"name":"sangam","version":"0.1.0"}'), '{"name":"sangam","version":"0.1.0"}')
  assert.equal(toolOutputText('{"metadata":{}}'), '{"metadata":{}}')
  assert.equal(toolOutputText(42), '')
})

test('fingerprints ignore whitespace and tell different texts apart', () => {
  assert.equal(fingerprint('Found 2 files.'), fingerprint('Found 2\nfiles. '))
  assert.notEqual(fingerprint('Found 2 files.'), fingerprint('Found 3 files.'))
  assert.notEqual(fingerprint('ab'), fingerprint('ba'))
  assert.ok(fingerprint('x'.repeat(100_000)).length < 24)
})
