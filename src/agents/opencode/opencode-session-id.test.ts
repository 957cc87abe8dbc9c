import assert from 'node:assert/strict'
import { test } from 'node:test'
import { opencodeSessionIdIn } from './opencode-session-id.ts'

test("a new opencode session's id is read from the first event of run --format json", () => {
  const output = [
    'opencode is starting',
    '{"type":"step_start","timestamp":1,"sessionID":"ses_1f2e3d4c5b6aABCdef012345GH","part":{}}',
    '{"type":"text","timestamp":2,"sessionID":"ses_other00000000000000000000","part":{}}',
  ].join('\n')
  assert.equal(opencodeSessionIdIn(output), 'ses_1f2e3d4c5b6aABCdef012345GH')
})

test('output naming no session gives no id', () => {
  assert.equal(opencodeSessionIdIn('{"type":"error","error":{"name":"UnknownError"}}\n'), null)
  assert.equal(opencodeSessionIdIn('{"sessionID":"not-an-opencode-id"}'), null)
})
