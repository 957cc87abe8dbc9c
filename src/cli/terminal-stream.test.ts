import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  clearLine,
  readlineOutput,
  redrawLine,
  TerminalStream,
  type TerminalTarget,
} from './terminal-stream.ts'

/** A terminal stand-in that records what reaches it. */
function terminal(options: { isTTY: boolean; columns?: number }) {
  const written: string[] = []
  const target = {
    isTTY: options.isTTY,
    columns: options.columns,
    write(text: string) {
      written.push(text)
      return true
    },
    once() {
      return target
    },
  } as unknown as TerminalTarget
  return { target, text: () => written.join('') }
}

test('what passes is escaped; sangam own status line and erased line are the only sequences', () => {
  const tty = terminal({ isTTY: true, columns: 30 })
  const stream = new TerminalStream(tty.target, { wrap: true })
  stream.write('hello \x1b[2Jworld\u009b1m\n')
  redrawLine(stream, 'progress 50% \x1b]0;x\x07 of a very long status line')
  clearLine(stream)
  stream.write('done\n')
  assert.equal(
    tty.text(),
    'hello \\e[2Jworld\\u009b1m\n\rprogress 50% \\e]0;x\\u0007 of \x1b[K\r\x1b[Kdone\n',
  )
  assert.equal(stream.isTTY, true)
  assert.equal(stream.columns, 30)
  assert.equal(readlineOutput(stream), tty.target)
})

test('lines wrap on a terminal only, and never for --json', () => {
  const long = `${'word '.repeat(20).trim()}\n`
  for (const [isTTY, wrap, wraps] of [
    [true, true, true],
    [true, false, false],
    [false, true, false],
  ] as const) {
    const out = terminal({ isTTY, columns: 20 })
    new TerminalStream(out.target, { wrap }).write(long)
    assert.equal(out.text().split('\n').length > 2, wraps, `tty ${isTTY}, wrap ${wrap}`)
  }
})

test('bytes split inside a character are decoded whole', () => {
  const out = terminal({ isTTY: false })
  const stream = new TerminalStream(out.target, { wrap: true })
  const bytes = Buffer.from('é\u202e')
  stream.write(bytes.subarray(0, 1))
  stream.write(bytes.subarray(1))
  assert.equal(out.text(), 'é\\u202e')
})
