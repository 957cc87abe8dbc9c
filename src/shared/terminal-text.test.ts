import assert from 'node:assert/strict'
import { test } from 'node:test'
import { escapeControls, oneLine } from './terminal-text.ts'

test('every control a terminal acts on is shown as an escape; newline and tab stay', () => {
  assert.equal(escapeControls('a\x1b[2Jb'), 'a\\e[2Jb')
  assert.equal(escapeControls('\x1b]0;title\x07'), '\\e]0;title\\u0007')
  assert.equal(escapeControls('over\rwrite'), 'over\\rwrite')
  assert.equal(escapeControls('c1 \u009b31m del \x7f nul \x00'), 'c1 \\u009b31m del \\u007f nul \\u0000')
  assert.equal(
    escapeControls('\u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c'),
    '\\u202eevil\\u202c \\u2066x\\u2069 \\u200e\\u200f\\u061c',
  )
  assert.equal(escapeControls('two\nlines\tand a tab'), 'two\nlines\tand a tab')
  assert.equal(escapeControls('plain, ünïcödé, 日本語, emoji 🎉'), 'plain, ünïcödé, 日本語, emoji 🎉')
})

test('oneLine also shows newline and tab, so a value cannot start a line of its own', () => {
  assert.equal(oneLine('title\nFORGED\tx\x1b[1A'), 'title\\nFORGED\\tx\\e[1A')
})

test('escaping a JSON text gives a JSON text of the same value', () => {
  const values = [
    'a\x1b[2J\r\n\t\x00\x7f\u0080\u009b\u009f\u202a\u202e\u2066\u2069\u200e\u200f\u061c z',
    { nested: ['\\\u202e', '\\\\\u009b', '"\x1b"'] },
    Array.from({ length: 0x2070 }, (_, code) => String.fromCharCode(code)).join(''),
  ]
  for (const value of values) {
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
      const escaped = escapeControls(text)
      assert.deepEqual(JSON.parse(escaped), value)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      assert.doesNotMatch(escaped, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    }
  }
})
