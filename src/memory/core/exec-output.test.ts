import assert from 'node:assert/strict'
import { test } from 'node:test'
import { corpusFiles, readTranscriptFile } from '../../../test/helpers/corpus.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { splitExecOutput } from './exec-output.ts'

test('a Codex exec header becomes a status; the output is what the command printed', () => {
  assert.deepEqual(
    splitExecOutput(
      'Chunk ID: 6d0214\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 54\nOutput:\n M a.ts\n M b.ts',
    ),
    { status: 'exit 0 · 0 s', output: ' M a.ts\n M b.ts' },
  )
  assert.deepEqual(
    splitExecOutput(
      "Command: /bin/zsh -lc 'npm test'\nChunk ID: ca9634\nWall time: 12.5 seconds\nProcess running with session ID 7\nOriginal token count: 500\nOutput:\nrunning",
    ),
    { status: 'running (session 7) · 13 s', output: 'running' },
  )
  assert.deepEqual(splitExecOutput('Exit code: 1\nWall time: 0.1 seconds\nOutput:\nfailed'), {
    status: 'exit 1 · 0.1 s',
    output: 'failed',
  })
  assert.deepEqual(splitExecOutput('Script running with cell ID 12\nWall time 11.0 seconds\nOutput:\n'), {
    status: 'running (cell 12) · 11 s',
    output: '',
  })
})

test('output that only looks like a header, or has none, is left alone', () => {
  assert.equal(splitExecOutput('Output:\nplain'), null)
  assert.equal(splitExecOutput('Build ID: 3\nOutput:\nplain'), null)
  assert.equal(splitExecOutput('Chunk ID: 1\nsomething else\nOutput:\nplain'), null)
  assert.equal(splitExecOutput('total 252\ndrwxr-xr-x 16 user user 4096 .'), null)
})

test('every Codex exec header in the corpus is recognised, and none is left in the output', () => {
  let split = 0
  for (const path of corpusFiles('codex')) {
    for (const event of readTranscriptFile(path, readerFor('codex')).events) {
      if (event.kind !== 'tool_output') continue
      const looksLikeHeader = /^(Chunk ID: |Command: |Exit code: |Script running |Process |Wall time)/.test(
        event.text,
      )
      const parts = splitExecOutput(event.text)
      assert.equal(parts !== null, looksLikeHeader, `${path}: ${JSON.stringify(event.text.slice(0, 120))}`)
      if (parts === null) continue
      split++
      assert.ok(parts.status, `${path}: a status from ${JSON.stringify(event.text.slice(0, 120))}`)
      assert.doesNotMatch(parts.output, /^(Chunk ID|Wall time|Original token count|Process exited)/)
      assert.ok(event.text.endsWith(parts.output))
    }
  }
  assert.ok(split > 100, `${split} exec outputs in the corpus`)
})
