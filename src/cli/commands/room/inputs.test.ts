import assert from 'node:assert/strict'
import { test } from 'node:test'
import * as message from '../../../room/protocol/message.ts'
import { withPostDefaults } from '../../../room/protocol/post-input.ts'
import * as read from '../../../room/protocol/read-input.ts'
import * as thread from '../../../room/protocol/thread.ts'
import * as threadOpen from '../../../room/protocol/thread-open-input.ts'
import {
  maxReadLimit,
  messageKinds,
  postInput,
  readInput,
  threadAudiences,
  threadLifetimes,
  threadOpenInput,
} from './inputs.ts'

test("the room commands' choices equal the protocol's and the read service's", () => {
  assert.deepEqual(messageKinds, message.messageKinds)
  assert.deepEqual(threadAudiences, thread.threadAudiences)
  assert.deepEqual(threadLifetimes, thread.threadLifetimes)
  assert.equal(maxReadLimit, read.maxReadLimit)
})

// The flags' help quotes the defaults that room/protocol fills in, which --help may not import.
test("the room commands' help states the protocol's defaults", () => {
  assert.match(readInput.options.limit.description, new RegExp(`\\(default ${read.defaultReadLimit}\\)$`))
  const { kind } = withPostDefaults({ text: 'x' })
  assert.match(postInput.options.kind.description, new RegExp(`\\(default ${kind}\\)$`))
  assert.deepEqual(read.withReadDefaults({}), { after: null, limit: read.defaultReadLimit })
  const { audience, lifetime } = threadOpenInput.options
  assert.match(audience.description, new RegExp(`default ${threadOpen.defaultThreadAudience}\\)$`))
  assert.match(lifetime.description, new RegExp(`\\(default ${threadOpen.defaultThreadLifetime}\\)$`))
})
