import assert from 'node:assert/strict'
import { test } from 'node:test'
import { applyPatchPaths } from './apply-patch-paths.ts'

test('reads added, updated, moved and deleted files from a patch, in order', () => {
  const patch = [
    '*** Begin Patch',
    '*** Add File: notes.txt',
    '+hello',
    '*** Update File: src/a.ts',
    '*** Move to: src/b.ts',
    '@@ export',
    '-old',
    '+new',
    '*** Delete File: /abs/gone.ts',
    '*** End Patch',
    '',
  ].join('\n')
  assert.deepEqual(applyPatchPaths(patch), ['notes.txt', 'src/a.ts', 'src/b.ts', '/abs/gone.ts'])
})

test('a header inside added content does not count, because content lines start with +', () => {
  const patch = '*** Begin Patch\n*** Add File: doc.md\n+*** Add File: src/secret.ts\n*** End Patch\n'
  assert.deepEqual(applyPatchPaths(patch), ['doc.md'])
})

test('CRLF line ends, surrounding spaces and repeated files give each path once', () => {
  const patch =
    '*** Begin Patch\r\n*** Update File:  src/a.ts \r\n@@\r\n*** Update File: src/a.ts\r\n*** End Patch\r\n'
  assert.deepEqual(applyPatchPaths(patch), ['src/a.ts'])
})

test('text that is not a patch names no file', () => {
  assert.deepEqual(applyPatchPaths('echo hello'), [])
  assert.deepEqual(applyPatchPaths(''), [])
})
