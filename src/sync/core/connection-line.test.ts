import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatConnectionLine, parseConnectionLine, parseServerUrl } from './connection-line.ts'

const key = 'Zk3v9Qm1x8Yt2Rb7Lw4Hs6Nd0Pc5Jf3Ua1Eg8Ko2Vi9'

test('a formatted line parses back to the same connection', () => {
  const line = { url: 'https://sync.example.dev/team', projectId: 'prj_55c77fa74600c37a', key }
  assert.deepEqual(parseConnectionLine(formatConnectionLine(line)), line)
  assert.deepEqual(parseConnectionLine(`  ${formatConnectionLine(line)}\n`), line)
})

test('server URLs are normalised: no trailing slash', () => {
  assert.equal(parseServerUrl('https://sync.example.dev/'), 'https://sync.example.dev')
  assert.equal(parseServerUrl('http://127.0.0.1:8787'), 'http://127.0.0.1:8787')
  assert.equal(parseServerUrl('http://localhost:8787/'), 'http://localhost:8787')
})

test('plain http to another machine is refused: the key would cross the network in clear', () => {
  assert.throws(() => parseServerUrl('http://sync.example.dev'), {
    code: 'INVALID_INPUT',
    message: /in clear/,
  })
  assert.throws(() => parseServerUrl('http://10.0.0.5:8787'), { code: 'INVALID_INPUT' })
})

test('URLs with credentials, a query, a fragment or another scheme are refused', () => {
  for (const url of [
    'https://u:p@x.dev',
    'https://x.dev?key=1',
    'https://x.dev#a',
    'ftp://x.dev',
    'not a url',
  ])
    assert.throws(() => parseServerUrl(url), { code: 'INVALID_INPUT' }, url)
})

test('a malformed line is refused without echoing its key', () => {
  for (const text of ['https://x.dev', 'https://x.dev#prj_1', `https://x.dev#bad id#${key}`, 'a#b#c#d']) {
    assert.throws(() => parseConnectionLine(text), { code: 'INVALID_INPUT' }, text)
  }
  const short = 'Zk3v9Qm1x8Yt2Rb7'
  assert.throws(
    () => parseConnectionLine(`https://x.dev#prj_1#${short}`),
    (error: Error) => !error.message.includes(short),
  )
})
