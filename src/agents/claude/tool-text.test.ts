import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { boundChars, boundedJson, maxBuiltText, toolCallText, toolResultText } from './tool-text.ts'

test('within its limit, boundedJson is JSON.stringify', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      assert.equal(boundedJson(value, Number.MAX_SAFE_INTEGER), JSON.stringify(value))
    }),
  )
})

test('boundedJson never exceeds its limit', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 200 }), (value, limit) => {
      assert.ok(boundedJson(value, limit).length <= limit)
    }),
  )
})

test('a megabyte string in a tool input costs at most the bound', () => {
  const text = toolCallText('Write', { file_path: '/a.txt', content: 'y'.repeat(1_000_000) })
  assert.equal(text.length, maxBuiltText)
  assert.ok(text.startsWith('Write {"file_path":"/a.txt","content":"yyy'))
})

test('an absurdly long tool name is bounded too', () => {
  assert.equal(toolCallText('n'.repeat(maxBuiltText * 2), { a: 1 }).length, maxBuiltText)
})

test('a value nested deeper than any stack survives, elided', () => {
  const deep = JSON.parse(`${'['.repeat(50_000)}1${']'.repeat(50_000)}`)
  const text = boundedJson(deep)
  assert.ok(text.includes('…'))
  assert.ok(text.length <= maxBuiltText)
})

test('tool result text: strings, text blocks, and nothing from images or references', () => {
  assert.equal(toolResultText('plain'), 'plain')
  assert.equal(
    toolResultText([
      { type: 'text', text: 'a' },
      { type: 'image', source: { data: 'AAAA' } },
      { type: 'tool_reference', tool_name: 'WebFetch' },
      { type: 'text', text: 'b' },
    ]),
    'a\nb',
  )
  assert.equal(toolResultText({ type: 'text', text: 'not an array' }), '')
  assert.equal(toolResultText(undefined), '')
  assert.equal(toolResultText('z'.repeat(maxBuiltText * 3)).length, maxBuiltText)
})

test('bounding never splits a surrogate pair', () => {
  const text = `${'a'.repeat(9)}😀`
  assert.equal(boundChars(text, 10), 'a'.repeat(9))
  assert.equal(boundChars(text, 11), text)
  assert.equal(boundChars(text, 0), '')
})
