import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { tools as registeredTools } from '../src/mcp/tools.ts'
import { collectOutput } from './helpers/child-output.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { recallProject } from './helpers/recall-project.ts'
import { cliEntry, mcpEntry, runCli, spawnNode } from './helpers/run-cli.ts'

type ToolResult = Awaited<ReturnType<Client['callTool']>>

function structured<T>(result: ToolResult): T {
  assert.notEqual(result.isError, true, JSON.stringify(result.content))
  assert.ok(result.structuredContent, 'a structured result')
  return result.structuredContent as T
}

function text(result: ToolResult): string {
  const [first] = result.content as { type: string; text: string }[]
  return first?.text ?? ''
}

const now = Date.now()

test('sangam mcp --help lists every tool the server registers', async () => {
  await using project = await recallProject()
  for (const args of [
    ['mcp', '--help'],
    ['help', 'mcp'],
  ]) {
    const help = await runCli(args, { cwd: project.repo.path, env: project.env })
    assert.equal(help.code, 0, help.stderr)
    const listed = help.stdout.split('Tools:\n')[1]?.trim().split('\n') ?? []
    assert.deepEqual(
      listed.map((line) => line.trim().split(/\s+/)[0]),
      registeredTools.map((tool) => tool.name),
      args.join(' '),
    )
  }
})

test('the server lists the four memory tools, each with an input and an output schema', async () => {
  await using project = await recallProject()
  await using mcp = await connectMcp(project.repo.path, project.env)
  const { tools } = await mcp.client.listTools()
  const names = tools.map((tool) => tool.name)
  for (const name of ['ctx_brief', 'ctx_search', 'ctx_thread', 'ctx_note']) {
    const tool = tools.find((candidate) => candidate.name === name)
    assert.ok(tool, `${name} is listed (got ${names.join(', ')})`)
    assert.equal(tool.inputSchema.type, 'object')
    assert.equal(tool.outputSchema?.type, 'object')
    assert.ok((tool.description ?? '').length > 40, `${name} explains itself`)
  }
})

test('note, search, thread and brief answer with structured content and text', async () => {
  await using project = await recallProject({
    CLAUDE_CODE_SESSION_ID: '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
  })
  const source = '/home/dev/.claude/projects/-work-widget/s1.jsonl'
  const ids = project.add(
    { kind: 'human', text: 'make the integration queue take one lock', source, offset: 0, at: now - 60_000 },
    { kind: 'assistant', text: 'I will add a lock file', source, offset: 100, at: now - 50_000 },
    {
      kind: 'tool_call',
      text: 'touch .integration.lock',
      toolName: 'Bash',
      source,
      offset: 200,
      at: now - 40_000,
    },
  )
  await using mcp = await connectMcp(project.repo.path, project.env)

  const note = structured<{ id: string; sessionId: string; author: string }>(
    await mcp.client.callTool({
      name: 'ctx_note',
      arguments: { text: 'the integration lock is a file, not a row' },
    }),
  )
  assert.equal(note.sessionId, '1af7fc5e-8455-4414-9ccd-011d40f70b2a')
  assert.equal(note.author, 'dev@example.com')

  const searched = await mcp.client.callTool({ name: 'ctx_search', arguments: { query: 'integration lock' } })
  const found = structured<{ hits: { id: string; kind: string; snippet: string; vendor: string }[] }>(
    searched,
  )
  const kinds = found.hits.map((hit) => hit.kind)
  assert.deepEqual([...kinds].sort(), ['human', 'note', 'tool_call'])
  assert.equal(kinds.at(-1), 'tool_call', 'the tool call ranks below what people said')
  const human = found.hits.find((hit) => hit.kind === 'human')
  assert.equal(human?.id, ids[0])
  assert.match(human?.snippet ?? '', /«integration»/)
  assert.match(text(searched), /3 hits for integration lock/)

  const thread = structured<{ human: { id: string } | null; items: { id: string; focus: boolean }[] }>(
    await mcp.client.callTool({ name: 'ctx_thread', arguments: { eventId: ids[2] } }),
  )
  assert.equal(thread.human?.id, ids[0])
  assert.deepEqual(
    thread.items.map((item) => [item.id, item.focus]),
    [
      [ids[1], false],
      [ids[2], true],
    ],
  )

  const briefed = await mcp.client.callTool({ name: 'ctx_brief', arguments: {} })
  const brief = structured<{ reader: string; text: string; sections: { key: string }[] }>(briefed)
  assert.equal(brief.reader, 'claude:1af7fc5e-8455-4414-9ccd-011d40f70b2a')
  assert.ok(brief.text.length <= 2000)
  assert.equal(text(briefed), brief.text)
  assert.deepEqual(
    brief.sections.map((section) => section.key),
    ['capture', 'sessions', 'branch', 'notes'],
  )
  assert.equal(mcp.stderr(), '')
})

test('bad calls come back as tool errors with a clear message, and the server keeps serving', async () => {
  await using project = await recallProject()
  await using mcp = await connectMcp(project.repo.path, project.env)
  const missing = await mcp.client.callTool({ name: 'ctx_thread', arguments: { eventId: 'ev_nope' } })
  assert.equal(missing.isError, true)
  assert.match(text(missing), /^NOT_FOUND: no event ev_nope/)
  const noQuery = await mcp.client.callTool({ name: 'ctx_search', arguments: {} })
  assert.equal(noQuery.isError, true)
  assert.match(text(noQuery), /query/)
  const badWindow = await mcp.client.callTool({
    name: 'ctx_search',
    arguments: { query: 'x', since: 'yesterday-ish' },
  })
  assert.equal(badWindow.isError, true)
  assert.match(text(badWindow), /^INVALID_INPUT: --since must be/)
  const emptyNote = await mcp.client.callTool({ name: 'ctx_note', arguments: { text: '   ' } })
  assert.equal(emptyNote.isError, true)
  assert.match(text(emptyNote), /^INVALID_INPUT: a note needs text/)
  const still = await mcp.client.callTool({ name: 'ctx_search', arguments: { query: 'anything' } })
  assert.notEqual(still.isError, true)
})

test('an argument a tool does not take is refused naming it, never dropped: room_post with recipients posts nothing', async () => {
  await using project = await recallProject()
  await using mcp = await connectMcp(project.repo.path, project.env)
  const posted = await mcp.call('room_post', { text: 'review this', recipients: ['@human'] })
  assert.equal(posted.isError, true)
  assert.match(text(posted), /Unrecognized key: "recipients"/)
  const read = structured<{ messages: unknown[] }>(await mcp.call('room_read', {}))
  assert.deepEqual(read.messages, [], 'nothing went to the whole room instead')
  const extra = await mcp.call('ctx_search', { query: 'x', limitt: 3 })
  assert.equal(extra.isError, true)
  assert.match(text(extra), /Unrecognized key: "limitt"/)
})

test('every tool refuses a NUL byte in any string it takes as INVALID_INPUT, never INTERNAL', async () => {
  await using project = await recallProject()
  project.add({ text: 'deploy on fridays is fine', at: now - 1000 })
  await using mcp = await connectMcp(project.repo.path, project.env)
  // A valid call of each tool; a new tool needs one here.
  const valid: Record<string, Record<string, unknown>> = {
    ctx_brief: {},
    ctx_search: { query: 'fridays' },
    ctx_thread: { eventId: 'ev_x' },
    ctx_note: { text: 'a note' },
    ctx_claim: { patterns: ['a.ts'], reason: 'testing' },
    ctx_release: { patterns: ['a.ts'] },
    ctx_who_has: { path: 'a.ts' },
    room_targets: {},
    room_identify: { handle: 'reviewer', session: 'no-such-session' },
    room_post: { text: 'hello room' },
    room_read: {},
    room_handoff: { text: 'done here', paths: ['a.ts'], proof: 'npm test', nextOwner: '@human' },
    room_threads: {},
    room_thread_open: { title: 'a question', participants: ['@human'], paths: ['a.ts'] },
    room_thread_close: { id: 'thr-nope' },
    room_board: {},
    room_ready: {},
    room_rules: {},
    room_alerts: {},
    lane_status: {},
    lane_sync: {},
    room_send: { session: 'no-such-session', text: 'hello' },
    room_session_start: { vendor: 'claude', text: 'begin' },
    room_session_stop: { session: 'no-such-session' },
  }
  const { tools } = await mcp.client.listTools()
  assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(valid).sort())
  let probed = 0
  for (const tool of tools) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<
      string,
      { type?: string; enum?: unknown; items?: { type?: string; enum?: unknown } }
    >
    for (const [field, schema] of Object.entries(properties)) {
      // An enum's own schema refuses anything else already.
      if (schema.enum !== undefined || schema.items?.enum !== undefined) continue
      const poisoned =
        schema.type === 'string'
          ? 'fri\u0000days'
          : schema.items?.type === 'string'
            ? ['fri\u0000days']
            : null
      if (poisoned === null) continue
      const result = await mcp.client.callTool({
        name: tool.name,
        arguments: { ...valid[tool.name], [field]: poisoned },
      })
      assert.equal(result.isError, true, `${tool.name} ${field}`)
      assert.match(
        text(result),
        new RegExp(`^INVALID_INPUT: ${field}(\\[0\\])? contains a NUL byte`),
        `${tool.name} ${field}`,
      )
      probed++
    }
  }
  assert.ok(probed >= 10, `${probed} string fields probed`)
  assert.doesNotMatch(mcp.stderr(), /\n\s+at /, 'no stack trace logged either')
})

test('the project comes from CLAUDE_PROJECT_DIR; outside any repository each call says so', async () => {
  await using project = await recallProject()
  const [id] = project.add({ text: 'deploy on fridays is fine', at: now - 1000 })
  {
    await using mcp = await connectMcp(project.home.path, {
      ...project.env,
      CLAUDE_PROJECT_DIR: project.repo.path,
    })
    const hits = structured<{ hits: { id: string }[] }>(
      await mcp.client.callTool({ name: 'ctx_search', arguments: { query: 'fridays' } }),
    ).hits
    assert.deepEqual(
      hits.map((hit) => hit.id),
      [id],
    )
  }
  await using outside = await connectMcp(project.home.path, project.env)
  for (let i = 0; i < 2; i++) {
    const result = await outside.client.callTool({ name: 'ctx_brief', arguments: {} })
    assert.equal(result.isError, true)
    assert.match(text(result), /^NOT_A_REPOSITORY: .*not inside a Git repository/)
  }
})

for (const [entry, args] of [
  ['sangam mcp', [cliEntry, 'mcp']],
  ['the bundled server hosts run', [mcpEntry]],
] as const) {
  test(`stdout carries JSON-RPC and nothing else, even with debug logging (${entry})`, async () => {
    await rawSession(args)
  })
}

async function rawSession(args: readonly string[]): Promise<void> {
  await using project = await recallProject()
  project.add({ text: 'hello there', at: now - 1000 })
  const child = spawnNode(args, { cwd: project.repo.path, env: { ...project.env, SANGAM_LOG: 'debug' } })
  const output = collectOutput(child)
  const send = (message: object): void => {
    child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
  }
  send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  })
  send({ method: 'notifications/initialized' })
  send({ id: 2, method: 'tools/list' })
  send({ id: 3, method: 'tools/call', params: { name: 'ctx_search', arguments: { query: 'hello' } } })
  send({ id: 4, method: 'tools/call', params: { name: 'ctx_thread', arguments: { eventId: 'nope' } } })
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  await waitFor(() => output.stdout.split('\n').filter((line) => line.trim() !== '').length >= 4)
  child.stdin?.end()
  assert.equal(await exited, 0, `the server exits cleanly when its client goes away\n${output.stderr}`)
  const lines = output.stdout.split('\n').filter((line) => line.trim() !== '')
  assert.equal(lines.length, 4)
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0')
  assert.match(output.stderr, /sangam debug: serving/)
}

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
