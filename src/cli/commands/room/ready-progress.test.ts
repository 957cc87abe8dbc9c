import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { test } from 'node:test'
import { quietMergeCount, readyProgress } from './ready-progress.ts'

function sink(isTTY: boolean): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY })
  let text = ''
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8')
  })
  return { stream, text: () => text }
}

test('progress: a terminal gets one line rewritten in place, ended by a newline', () => {
  const { stream, text } = sink(true)
  const progress = readyProgress(stream)
  progress(48, 96)
  progress(96, 96)
  progress.end()
  assert.equal(
    text(),
    // Each redraw erases what a longer line before it left (sangam's own sequence, D290).
    '\rsangam: checking branch pairs 48/96 (50%)\x1b[K\rsangam: checking branch pairs 96/96 (100%)\x1b[K\n',
  )
})

test('progress: elsewhere nothing for a short run, a line per 10 % for a long one', () => {
  const short = sink(false)
  const quiet = readyProgress(short.stream)
  quiet(10, quietMergeCount - 1)
  quiet.end()
  assert.equal(short.text(), '')
  const long = sink(false)
  const loud = readyProgress(long.stream)
  for (let done = 48; done < 480; done += 48) loud(done, 480)
  loud(480, 480)
  loud.end()
  const lines = long.text().trim().split('\n')
  assert.equal(lines.length, 10)
  assert.equal(lines.at(-1), 'sangam: checking branch pairs 480/480 (100%)')
})
