import assert from 'node:assert/strict'
import { test } from 'node:test'
import { bearerKey, digestKey, digestsEqual, refuseKeyInQuery } from '../src/auth.ts'
import { Refusal } from '../src/refusal.ts'

test('the stored digest is the SHA-256 of the key, never the key', async () => {
  const key = 'k'.repeat(43)
  const digest = await digestKey(key)
  assert.match(digest, /^[0-9a-f]{64}$/)
  assert.equal(digest, await digestKey(key))
  assert.notEqual(digest, await digestKey(`${key}x`))
  assert.equal(digest.includes(key), false)
})

test('digests compare equal only when every character matches', () => {
  const a = 'ab'.repeat(32)
  assert.equal(digestsEqual(a, a), true)
  assert.equal(digestsEqual(a, `${a.slice(0, 63)}c`), false)
  assert.equal(digestsEqual(a, `c${a.slice(1)}`), false)
  assert.equal(digestsEqual(a, a.slice(0, 63)), false)
})

test('the key is read from a Bearer Authorization header and nowhere else', () => {
  const request = (headers: Record<string, string>): Request =>
    new Request('https://sync.example/v1/health', { headers })
  assert.equal(bearerKey(request({ authorization: 'Bearer abc.DEF_123' })), 'abc.DEF_123')
  assert.equal(bearerKey(request({ authorization: 'bearer  abc ' })), 'abc')
  for (const headers of [
    {},
    { authorization: 'Basic abc' },
    { authorization: 'Bearer' },
    { 'x-api-key': 'abc' },
  ])
    assert.throws(
      () => bearerKey(request(headers)),
      (error) => error instanceof Refusal && error.code === 'UNAUTHORIZED',
    )
})

test('a URL carrying a key-like parameter is refused, whatever its case', () => {
  assert.doesNotThrow(() =>
    refuseKeyInQuery(new URL('https://sync.example/x?after=3&limit=10'), 'k'.repeat(43)),
  )
  for (const name of ['key', 'Token', 'ACCESS_TOKEN', 'api_key'])
    assert.throws(
      () => refuseKeyInQuery(new URL(`https://sync.example/x?${name}=secret`), null),
      (error) =>
        error instanceof Refusal && error.code === 'KEY_IN_QUERY' && !error.message.includes('secret'),
    )
})
