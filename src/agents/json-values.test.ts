import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseJsonValues } from './json-values.ts'

test('one object on a line is one value', () => {
  assert.deepEqual(parseJsonValues('{"type":"user","n":1}'), [{ type: 'user', n: 1 }])
})

test('two objects appended without a newline are two values', () => {
  assert.deepEqual(parseJsonValues('{"a":"x}{"}{"type":"summary","summary":"t"}'), [
    { a: 'x}{' },
    { type: 'summary', summary: 't' },
  ])
})

test('braces and escaped quotes inside strings do not split a value', () => {
  const line = '{"t":"he said \\"}{\\" and {left}"}  {"b":[1,{"c":"]"}]}'
  assert.deepEqual(parseJsonValues(line), [{ t: 'he said "}{" and {left}' }, { b: [1, { c: ']' }] }])
})

test('a torn line is not JSON, even when its first half is', () => {
  assert.equal(parseJsonValues('{"a":1}{"type":"assis'), null)
  assert.equal(parseJsonValues('{"type":"assis'), null)
  assert.equal(parseJsonValues('not json at all'), null)
})

test('a scalar is a value the reader must cope with', () => {
  assert.deepEqual(parseJsonValues('42'), [42])
  assert.deepEqual(parseJsonValues('null'), [null])
})
