import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SangamError } from '../../shared/sangam-error.ts'
import { isFatalRefusal, readRefusal, refusalError } from './refusal.ts'

const url = 'http://127.0.0.1:8787'

test('a refusal keeps the server code as a typed wireCode, and its details in data', () => {
  const error = refusalError(
    { status: 429, error: { code: 'RATE_LIMITED', message: 'too fast', retryAfterMs: 500 } },
    { url },
  )
  assert.ok(error instanceof SangamError)
  assert.equal(error.code, 'SERVER_REFUSED')
  assert.equal(error.wireCode, 'RATE_LIMITED')
  assert.equal(error.message, `the sync server at ${url} refused: too fast`)
  assert.deepEqual(error.data, { server: url, status: 429, unreachable: false, retryAfterMs: 500 })
})

test('a wrong key and a cursor ahead of the server are explained, and final', () => {
  const unauthorized = refusalError({ status: 401, error: { code: 'UNAUTHORIZED', message: 'no' } }, { url })
  assert.match(unauthorized.message, /refused: no: the key or project id is wrong; run sangam join/)
  const ahead = refusalError(
    { status: null, error: { code: 'CURSOR_AHEAD', message: 'x', headGseq: 3 } },
    { url },
  )
  assert.match(ahead.message, /has fewer records \(head 3\) than this replica applied/)
  assert.deepEqual(ahead.data, { server: url, status: null, unreachable: false, headGseq: 3 })
  assert.equal(isFatalRefusal(unauthorized), true)
  assert.equal(isFatalRefusal(ahead), true)
  assert.equal(
    isFatalRefusal(refusalError({ status: 413, error: { code: 'BODY_TOO_LARGE', message: 'big' } }, { url })),
    false,
  )
  assert.equal(isFatalRefusal(new SangamError('SERVER_REFUSED', 'no wire code')), false)
})

test('a caller explains a code itself, and names what was refused', () => {
  const taken = refusalError(
    { status: 409, error: { code: 'PROJECT_TAKEN', message: 'taken' } },
    { url, explain: { PROJECT_TAKEN: 'ask whoever created it' } },
  )
  assert.equal(taken.message, 'ask whoever created it')
  const socket = refusalError(
    { status: 404, error: { code: 'NOT_FOUND', message: 'gone' } },
    { url, action: 'socket' },
  )
  assert.equal(socket.message, `the sync server at ${url} refused the socket: gone`)
})

test('for a claim or release, bad input is INVALID_INPUT and a server failure is UNCONFIRMED', () => {
  const context = { url, action: 'claim', arbitrated: true }
  const invalid = refusalError(
    { status: 400, error: { code: 'INVALID_REQUEST', message: 'patterns: empty' } },
    context,
  )
  assert.deepEqual(
    [invalid.code, invalid.wireCode, invalid.message],
    ['INVALID_INPUT', 'INVALID_REQUEST', 'patterns: empty'],
  )
  const failed = refusalError({ status: 500, error: { code: 'INTERNAL', message: 'see logs' } }, context)
  assert.equal(failed.code, 'UNCONFIRMED')
  assert.match(failed.message, /failed \(see logs\)\. The claim is unconfirmed: try again/)
  const proxied = refusalError(readRefusal(502, null), context)
  assert.deepEqual([proxied.code, proxied.wireCode], ['UNCONFIRMED', 'INTERNAL'])
  assert.match(proxied.message, /HTTP 502 without a sync error body/)
  const unauthorized = refusalError({ status: 401, error: { code: 'UNAUTHORIZED', message: 'no' } }, context)
  assert.deepEqual([unauthorized.code, unauthorized.wireCode], ['SERVER_REFUSED', 'UNAUTHORIZED'])
  assert.match(unauthorized.message, /refused the claim: no: the key or project id is wrong/)
})
