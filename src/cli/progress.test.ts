import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ManualClock } from '../shared/clock.ts'
import { createProgressBar, render } from './progress.ts'

const at = (filesDone: number, bytesDone: number) => ({
  filesDone,
  filesTotal: 4,
  bytesDone,
  bytesTotal: 4 * 1024 * 1024,
  events: filesDone * 10,
})

function sink(isTTY: boolean): { writes: string[]; write(text: string): void; isTTY: boolean } {
  const writes: string[] = []
  return { writes, isTTY, write: (text) => writes.push(text) }
}

test('the bar shows files, megabytes and events', () => {
  assert.equal(
    render('index', at(2, 2 * 1024 * 1024), true),
    'index [############------------]  50%  2/4 files  2.0/4.0 MB  20 events',
  )
})

test('on a terminal the line is redrawn in place, at most every 100 ms, and ended by done()', () => {
  const clock = new ManualClock(0)
  const out = sink(true)
  const bar = createProgressBar(out, clock, 'index')
  bar.update(at(0, 0))
  bar.update(at(1, 1024 * 1024))
  clock.advance(150)
  bar.update(at(2, 2 * 1024 * 1024))
  bar.done()
  assert.equal(out.writes.length, 4)
  assert.ok(out.writes.slice(0, 3).every((text) => text.startsWith('\r') && text.endsWith('\x1b[K')))
  assert.match(out.writes[2] ?? '', /2\/4 files/)
  assert.equal(out.writes[3], '\n')
})

test('without a terminal it prints a plain line every 5 s, and nothing for a quick run', () => {
  const clock = new ManualClock(0)
  const quick = sink(false)
  const fast = createProgressBar(quick, clock, 'index')
  fast.update(at(4, 4 * 1024 * 1024))
  fast.done()
  assert.deepEqual(quick.writes, [])

  const slow = sink(false)
  const bar = createProgressBar(slow, clock, 'index')
  bar.update(at(1, 1024 * 1024))
  clock.advance(5000)
  bar.update(at(2, 2 * 1024 * 1024))
  bar.update(at(3, 3 * 1024 * 1024))
  bar.done()
  assert.deepEqual(
    slow.writes.map((line) => /(\d)\/4 files/.exec(line)?.[1]),
    ['2', '3'],
  )
  assert.ok(slow.writes.every((line) => !line.includes('\r') && line.endsWith('\n')))
})
