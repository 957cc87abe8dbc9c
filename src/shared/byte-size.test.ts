import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatByteSize, parseByteSize } from './byte-size.ts'

test('sizes parse in bytes and binary units, however they are written', () => {
  assert.equal(parseByteSize('1073741824'), 1024 ** 3)
  assert.equal(parseByteSize('512MB'), 512 * 1024 ** 2)
  assert.equal(parseByteSize('1.5 GB'), 1.5 * 1024 ** 3)
  assert.equal(parseByteSize('2GiB'), 2 * 1024 ** 3)
  assert.equal(parseByteSize('64k'), 64 * 1024)
  assert.equal(parseByteSize('10 b'), 10)
  for (const wrong of ['', 'GB', '-1GB', '1 PB', '1,5GB', '0x10', '1e9', '1 iB'])
    assert.equal(parseByteSize(wrong), null, wrong)
})

test('sizes print with at most three significant figures', () => {
  assert.equal(formatByteSize(40), '40 B')
  assert.equal(formatByteSize(912 * 1024), '912 KB')
  assert.equal(formatByteSize(1024 ** 3), '1.00 GB')
  assert.equal(formatByteSize(209.5 * 1024 ** 2), '210 MB')
  assert.equal(formatByteSize(15.25 * 1024 ** 2), '15.3 MB')
  assert.equal(formatByteSize(1024 ** 3 - 32 * 1024), '1.00 GB', 'never 1024 MB')
  assert.equal(formatByteSize(1000), '0.98 KB')
})
