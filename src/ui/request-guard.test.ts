import assert from 'node:assert/strict'
import { test } from 'node:test'
import { type GuardedRequest, guardRequest } from './request-guard.ts'

const server = { port: 43117, token: 'Jb1xTokenOfThisRun-0123456789abcdefghijklmno' }

function request(fields: Partial<GuardedRequest>): GuardedRequest {
  return {
    method: 'GET',
    host: '127.0.0.1:43117',
    origin: undefined,
    secFetchSite: undefined,
    contentType: undefined,
    cookieToken: server.token,
    queryToken: undefined,
    ...fields,
  }
}

const verdict = (fields: Partial<GuardedRequest>) => guardRequest(request(fields), server)

test('a read with the cookie passes, on 127.0.0.1 and on localhost', () => {
  assert.deepEqual(verdict({}), { kind: 'pass' })
  assert.deepEqual(verdict({ host: 'localhost:43117' }), { kind: 'pass' })
  assert.deepEqual(verdict({ host: 'LOCALHOST:43117', method: 'head' }), { kind: 'pass' })
})

test('a foreign Host is refused 403 before the token is looked at (DNS rebinding)', () => {
  for (const host of [
    'evil.example:43117',
    '127.0.0.1:80',
    '127.0.0.1',
    'localhost',
    '0.0.0.0:43117',
    undefined,
  ]) {
    const answer = verdict({ host, cookieToken: undefined })
    assert.equal(answer.kind, 'refuse', String(host))
    assert.equal(answer.kind === 'refuse' && answer.status, 403, String(host))
  }
})

test('no token, a wrong one, or one of another length is 401', () => {
  for (const cookieToken of [undefined, '', 'x', `${server.token}x`, server.token.replace('J', 'K')]) {
    const answer = verdict({ cookieToken })
    assert.deepEqual(answer.kind === 'refuse' && [answer.status, answer.code], [401, 'UNAUTHORIZED'])
  }
})

test("the URL's token is adopted by a navigation only; a write must carry the cookie", () => {
  assert.deepEqual(verdict({ cookieToken: undefined, queryToken: server.token }), { kind: 'adopt-token' })
  assert.equal(verdict({ cookieToken: undefined, queryToken: 'wrong' }).kind, 'refuse')
  const write = verdict({
    method: 'POST',
    cookieToken: undefined,
    queryToken: server.token,
    contentType: 'application/json',
  })
  assert.deepEqual(write.kind === 'refuse' && write.status, 401)
})

test('a write from the page passes: same origin, JSON, with or without Origin', () => {
  const write = { method: 'POST', contentType: 'application/json; charset=utf-8' }
  assert.deepEqual(verdict({ ...write, origin: 'http://127.0.0.1:43117', secFetchSite: 'same-origin' }), {
    kind: 'pass',
  })
  assert.deepEqual(verdict({ ...write, origin: 'http://localhost:43117' }), { kind: 'pass' })
  assert.deepEqual(verdict(write), { kind: 'pass' })
})

test('a cross-origin write is 403: another Origin, another port, a cross-site fetch, a form', () => {
  const write = { method: 'POST', contentType: 'application/json' }
  for (const fields of [
    { ...write, origin: 'http://evil.example' },
    { ...write, origin: 'http://127.0.0.1:8080' },
    { ...write, origin: 'https://127.0.0.1:43117' },
    { ...write, origin: 'null' },
    { ...write, secFetchSite: 'cross-site' },
    { ...write, secFetchSite: 'same-site' },
    { ...write, contentType: 'application/x-www-form-urlencoded' },
    { ...write, contentType: 'text/plain' },
    { ...write, contentType: undefined },
    { ...write, method: 'DELETE', origin: 'http://evil.example' },
  ]) {
    const answer = verdict(fields)
    assert.deepEqual(
      answer.kind === 'refuse' && [answer.status, answer.code],
      [403, 'FORBIDDEN'],
      JSON.stringify(fields),
    )
  }
})
