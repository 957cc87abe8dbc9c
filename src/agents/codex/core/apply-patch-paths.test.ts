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

test('headers with leading whitespace count, because Codex trims each hunk header before matching it', () => {
  const patch = [
    '*** Begin Patch',
    '  *** Update File: src/a.ts',
    '@@',
    '-1',
    '+2',
    '\t*** Add File: src/new.ts',
    '+x',
    ' \t *** Delete File: src/old.ts',
    '*** End Patch',
  ].join('\n')
  assert.deepEqual(applyPatchPaths(patch), ['src/a.ts', 'src/new.ts', 'src/old.ts'])
  const padded = '\n\n   *** Begin Patch\n   *** Add File: src/b.ts\n+b\n*** End Patch   \n'
  assert.deepEqual(applyPatchPaths(padded), ['src/b.ts'])
})

test('a patch inside a <<EOF heredoc is read like the patch itself', () => {
  const patch = "<<'EOF'\n*** Begin Patch\n  *** Update File: src/a.ts\n@@\n-1\n+2\n*** End Patch\nEOF\n"
  assert.deepEqual(applyPatchPaths(patch), ['src/a.ts'])
})

test('header text on a context line of an update is content, as Codex reads it', () => {
  const patch = [
    '*** Begin Patch',
    '*** Update File: docs/patches.md',
    '@@',
    ' *** Add File: src/secret.ts',
    '-old',
    '+new',
    '*** End Patch',
  ].join('\n')
  assert.deepEqual(applyPatchPaths(patch), ['docs/patches.md'])
})

test('a patch Codex cannot parse still names every header-shaped line', () => {
  const patch = '*** Begin Patch\n  *** Update File: src/a.ts\nnot a chunk line\n  *** Add File: src/b.ts\n'
  assert.deepEqual(applyPatchPaths(patch), ['src/a.ts', 'src/b.ts'])
})
