import assert from 'node:assert/strict'
import { appendFileSync, closeSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { ByteFingerprint } from './byte-fingerprint.ts'
import { JsonlFileReader, type JsonlLine, type JsonlFileReader as Reader } from './jsonl-file-reader.ts'

function readAll(reader: Reader, takeUnterminated = true): JsonlLine[] {
  const lines: JsonlLine[] = []
  for (let line = reader.next(takeUnterminated); line; line = reader.next(takeUnterminated)) lines.push(line)
  return lines
}

async function withFile<T>(content: Buffer | string, use: (fd: number, path: string) => T): Promise<T> {
  await using dir = tmpDir()
  const path = join(dir.path, 't.jsonl')
  writeFileSync(path, content)
  const fd = openSync(path, 'r')
  try {
    return use(fd, path)
  } finally {
    closeSync(fd)
  }
}

test('lines are split on newline bytes, with CRLF endings and byte offsets', async () => {
  const lines = await withFile('{"a":1}\r\n\n{"b":"é"}\n', (fd) =>
    readAll(new JsonlFileReader(fd, 0, ByteFingerprint.empty(), { chunkBytes: 4 })),
  )
  assert.deepEqual(
    lines.map((line) => [line.start, line.end, line.text]),
    [
      [0, 9, '{"a":1}'],
      [9, 10, ''],
      [10, 21, '{"b":"é"}'],
    ],
  )
})

test('invalid UTF-8 is decoded with replacement characters instead of failing', async () => {
  const bytes = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xff, 0xc3]), Buffer.from('"}\n')])
  const [line] = await withFile(bytes, (fd) => readAll(new JsonlFileReader(fd, 0, ByteFingerprint.empty())))
  assert.equal(line?.text, '{"t":"\uFFFD\uFFFD"}')
})

test('a final line without a newline stays pending until the caller takes it', async () => {
  await using dir = tmpDir()
  const path = join(dir.path, 't.jsonl')
  writeFileSync(path, '{"a":1}\n{"b":')
  const fd = openSync(path, 'r')
  const reader = new JsonlFileReader(fd, 0, ByteFingerprint.empty(), { chunkBytes: 3 })
  assert.equal(reader.next(false)?.text, '{"a":1}')
  assert.equal(reader.next(false), null)
  assert.equal(reader.pendingBytes, 5)
  assert.equal(reader.position, 8)
  appendFileSync(path, '2}\n')
  const finished = reader.next(false)
  closeSync(fd)
  assert.deepEqual(finished, { start: 8, end: 16, text: '{"b":2}', terminated: true })
})

test('an unterminated final line is returned as such when asked for', async () => {
  const lines = await withFile('{"a":1}\n{"b":2}', (fd) =>
    readAll(new JsonlFileReader(fd, 0, ByteFingerprint.empty())),
  )
  assert.deepEqual(lines[1], { start: 8, end: 15, text: '{"b":2}', terminated: false })
})

test('a multi-megabyte line spanning many chunks is read whole', async () => {
  const big = `{"t":"${'x'.repeat(3 * 1024 * 1024)}"}`
  const lines = await withFile(`${big}\n{"n":2}\n`, (fd) =>
    readAll(new JsonlFileReader(fd, 0, ByteFingerprint.empty(), { chunkBytes: 64 * 1024 })),
  )
  assert.equal(lines.length, 2)
  assert.equal(lines[0]?.text, big)
  assert.equal(lines[1]?.start, big.length + 1)
})

test('a line over the cap is reported without its text, and the next line is intact', async () => {
  const lines = await withFile(`{"t":"${'y'.repeat(5000)}"}\n{"n":2}\n{"n":3}\n`, (fd) =>
    readAll(new JsonlFileReader(fd, 0, ByteFingerprint.empty(), { chunkBytes: 512, maxLineBytes: 1000 })),
  )
  assert.deepEqual(
    lines.map((line) => line.text),
    [null, '{"n":2}', '{"n":3}'],
  )
})

test('reading resumes from an offset, and the fingerprint equals one loaded from the file', async () => {
  const content = Array.from({ length: 400 }, (_, i) => `{"i":${i},"pad":"${'p'.repeat(i % 50)}"}`).join('\n')
  await withFile(`${content}\n`, (fd) => {
    const whole = ByteFingerprint.empty()
    const first = new JsonlFileReader(fd, 0, whole, { chunkBytes: 100 })
    for (let i = 0; i < 250; i++) first.next(false)
    const offset = first.position
    assert.equal(whole.digest(), ByteFingerprint.load(fd, offset)?.digest())
    const resumed = ByteFingerprint.load(fd, offset)
    if (!resumed) throw new Error('could not load')
    const rest = readAll(new JsonlFileReader(fd, offset, resumed, { chunkBytes: 77 }))
    assert.equal(rest.length, 150)
    assert.equal(rest[0]?.text?.startsWith('{"i":250,'), true)
    assert.equal(resumed.digest(), ByteFingerprint.load(fd, rest.at(-1)?.end ?? 0)?.digest())
  })
})

test('a fingerprint cannot be loaded past the end of a truncated file', async () => {
  await withFile('{"a":1}\n', (fd) => {
    assert.equal(ByteFingerprint.load(fd, 100), null)
    assert.equal(ByteFingerprint.load(fd, 0)?.digest(), '')
  })
})
