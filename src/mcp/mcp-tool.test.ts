import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { z } from 'zod'
import { connectTools } from '../../test/helpers/mcp-tools-client.ts'
import { readEnvironment } from '../config/environment.ts'
import { ManualClock } from '../shared/clock.ts'
import { createLogger } from '../shared/logger.ts'
import { ErrorCode, SangamError } from '../shared/sangam-error.ts'
import { McpContext } from './mcp-context.ts'
import { defineTool } from './mcp-tool.ts'

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'says what it is told, or fails as told',
  input: { say: z.string(), fail: z.enum(['none', 'sangam', 'bug', 'busy']).default('none') },
  output: { said: z.string() },
  readOnly: true,
  async run(input) {
    if (input.fail === 'sangam') throw new SangamError(ErrorCode.NotFound, 'nothing called that')
    if (input.fail === 'bug') throw new TypeError('cannot read x of undefined')
    if (input.fail === 'busy')
      throw Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 })
    return { structured: { said: input.say }, text: `you said ${input.say}` }
  },
})

async function connected(logs: string[]): Promise<Client> {
  const context = new McpContext({
    env: readEnvironment({ HOME: '/nonexistent' }),
    clock: new ManualClock(0),
    log: createLogger({ write: (line) => logs.push(line) }, 'debug'),
    cwd: '/nonexistent',
    version: '0',
    clientName: () => undefined,
  })
  return connectTools([echo], context, 'test-client')
}

test('a tool answers with structured content and its text rendering', async () => {
  const client = await connected([])
  const result = await client.callTool({ name: 'echo', arguments: { say: 'hi' } })
  assert.deepEqual(result.structuredContent, { said: 'hi' })
  assert.deepEqual(result.content, [{ type: 'text', text: 'you said hi' }])
})

test('a SangamError is a tool error with its code; a bug is INTERNAL and logged, and the server keeps serving', async () => {
  const logs: string[] = []
  const client = await connected(logs)
  const expected = await client.callTool({ name: 'echo', arguments: { say: 'x', fail: 'sangam' } })
  assert.equal(expected.isError, true)
  assert.deepEqual(expected.content, [{ type: 'text', text: 'NOT_FOUND: nothing called that' }])
  assert.equal(logs.length, 0, 'an expected failure is not logged as an error')
  const bug = await client.callTool({ name: 'echo', arguments: { say: 'x', fail: 'bug' } })
  assert.equal(bug.isError, true)
  assert.deepEqual(bug.content, [{ type: 'text', text: 'INTERNAL: cannot read x of undefined' }])
  assert.match(logs.join(''), /sangam error: echo failed .*TypeError: cannot read x of undefined/)
  const after = await client.callTool({ name: 'echo', arguments: { say: 'still here' } })
  assert.deepEqual(after.structuredContent, { said: 'still here' })
})

test('a NUL byte anywhere in the input is INVALID_INPUT naming the field, and the tool does not run', async () => {
  const logs: string[] = []
  const client = await connected(logs)
  const result = await client.callTool({ name: 'echo', arguments: { say: 'a\u0000b', fail: 'bug' } })
  assert.equal(result.isError, true)
  assert.deepEqual(result.content, [
    { type: 'text', text: 'INVALID_INPUT: say contains a NUL byte; got "a\\u0000b"' },
  ])
  assert.equal(logs.length, 0)
})

test("a statement's SQLITE_BUSY is STORE_BUSY to the agent, not INTERNAL", async () => {
  const logs: string[] = []
  const client = await connected(logs)
  const result = await client.callTool({ name: 'echo', arguments: { say: 'x', fail: 'busy' } })
  assert.equal(result.isError, true)
  assert.match((result.content as { text: string }[])[0]?.text ?? '', /^STORE_BUSY: /)
  assert.equal(logs.length, 0)
})
