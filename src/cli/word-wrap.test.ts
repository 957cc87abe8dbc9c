import assert from 'node:assert/strict'
import { test } from 'node:test'
import { displayWidth, WordWrapper, wrapText } from './word-wrap.ts'

const fits = (text: string, width: number): boolean =>
  text.split('\n').every((line) => displayWidth(line) <= width)
const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '')

test('a line wider than the terminal breaks at spaces, keeping every word whole', () => {
  const prose =
    'Register the sangam MCP server (its memory and lease tools) with Claude Code and Codex? [Y/n] '
  const wrapped = wrapText(prose, 40)
  assert.ok(fits(wrapped, 40), wrapped)
  assert.deepEqual(words(wrapped), words(prose))
  assert.ok(wrapped.endsWith('[Y/n] '), 'a prompt keeps its last space')
  assert.equal(wrapText('short line\n', 40), 'short line\n')
})

test('a continuation keeps the indentation, or hangs under a table row text column', () => {
  assert.equal(wrapText('  aaaa bbbb cccc dddd', 12), '  aaaa bbbb\n  cccc dddd')
  const row = 'lease-collision         refuse  default, enforced: listed in alerts and in every session'
  const wrapped = wrapText(row, 60).split('\n')
  assert.equal(wrapped[0], 'lease-collision         refuse  default, enforced: listed in')
  assert.equal(wrapped[1], `${' '.repeat(32)}alerts and in every session`)
})

test('a word longer than the room is never cut', () => {
  const url = `https://example.com/${'x'.repeat(60)}`
  assert.equal(wrapText(`see ${url} now`, 30), `see\n${url}\nnow`)
})

test('text that comes in pieces wraps as one line', () => {
  const wrapper = new WordWrapper()
  const out = wrapper.push('paste the line: ', 20) + wrapper.push('and then more words here\n', 20)
  assert.equal(out, 'paste the line: and\nthen more words here\n')
})

test('wide characters count two columns, combining marks none', () => {
  assert.equal(displayWidth('日本語'), 6)
  assert.equal(displayWidth('e\u0301'), 1)
  assert.equal(displayWidth('🎉 ok'), 5)
  assert.ok(fits(wrapText('日本語 日本語 日本語 日本語', 14), 14))
})
