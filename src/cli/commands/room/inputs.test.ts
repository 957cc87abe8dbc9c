import assert from 'node:assert/strict'
import { test } from 'node:test'
import * as message from '../../../room/protocol/message.ts'
import * as thread from '../../../room/protocol/thread.ts'
import * as read from '../../../room/services/read.ts'
import { maxReadLimit, messageKinds, threadAudiences, threadLifetimes } from './inputs.ts'

test("the room commands' choices equal the protocol's and the read service's", () => {
  assert.deepEqual(messageKinds, message.messageKinds)
  assert.deepEqual(threadAudiences, thread.threadAudiences)
  assert.deepEqual(threadLifetimes, thread.threadLifetimes)
  assert.equal(maxReadLimit, read.maxReadLimit)
})
