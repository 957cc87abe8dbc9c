import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { moduleTrace } from './helpers/module-trace.ts'
import { recallProject } from './helpers/recall-project.ts'
import { mcpEntry, projectRoot, spawnNode } from './helpers/run-cli.ts'

/**
 * An agent CLI waits for the MCP server's answers to `initialize` and `tools/list` before its
 * first model request. The server gives them from the listing recorded at build time and loads the
 * SDK, zod and the tools' services at the first tool call (src/mcp/lazy-server.ts, D395); these
 * tests pin that nothing heavy loads before, and that the answers are the SDK's own. Timing itself
 * is measured by bench/cli-startup.ts, never asserted here.
 */

/** A raw JSON-RPC session with a server process: lines in, answers out, by id. */
function session(args: readonly string[], cwd: string, env: Record<string, string | undefined>) {
  const child = spawnNode(args, { cwd, env })
  const answers = new Map<unknown, string>()
  let text = ''
  let stderr = ''
  const waiting: { id: number; resolve: () => void }[] = []
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8')
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n')) {
      const line = text.slice(0, index)
      answers.set(JSON.parse(line).id, line)
      text = text.slice(index + 1)
    }
    for (const each of waiting.filter((wait) => answers.has(wait.id))) each.resolve()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  return {
    send(message: object): void {
      child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    },
    /** The answer to request `id`, once it is in, exactly as written. */
    async answer(id: number): Promise<string> {
      const answered = new Promise<void>((resolve) => {
        if (answers.has(id)) resolve()
        else waiting.push({ id, resolve })
      })
      await Promise.race([answered, exited])
      const line = answers.get(id)
      assert.ok(line !== undefined, `no answer to ${id}\n${stderr}`)
      return line
    },
    /** Every answer so far, by id. */
    answers: (): ReadonlyMap<unknown, string> => answers,
    async end(): Promise<void> {
      child.stdin?.end()
      assert.equal(await exited, 0, stderr)
    },
  }
}

const initialize = (id: number, params: object) => ({ id, method: 'initialize', params })
const plainClient = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'raw', version: '0' },
}

test('until the first tool call the MCP server loads neither the MCP SDK nor zod, then serves the call', async () => {
  await using project = await recallProject()
  const trace = moduleTrace(project.home.path)
  // tsc's unbundled build of the hosts' entry, whose modules a loader hook can see; the bundle the
  // hosts run is the same module graph.
  const unbundled = join(projectRoot, 'dist', 'mcp', 'mcp-main.js')
  const server = session(['--import', trace.importFlag, unbundled], project.repo.path, project.env)
  server.send(initialize(1, plainClient))
  server.send({ method: 'notifications/initialized' })
  server.send({ id: 2, method: 'tools/list' })
  assert.equal(JSON.parse(await server.answer(1)).result.serverInfo.name, 'sangam')
  assert.ok(
    JSON.parse(await server.answer(2)).result.tools.some(
      (tool: { name: string }) => tool.name === 'ctx_search',
    ),
  )
  const early = trace.loaded()
  assert.ok(
    early.some((url) => url.endsWith('/dist/mcp/lazy-server.js')),
    'the trace sees our modules',
  )
  assert.deepEqual(
    early.filter((url) =>
      /\/node_modules\/(zod|@modelcontextprotocol|ajv)\/|\/dist\/(services|store)\//.test(url),
    ),
    [],
  )
  server.send({
    id: 3,
    method: 'tools/call',
    params: { name: 'ctx_who_has', arguments: { path: 'src/a.ts' } },
  })
  assert.deepEqual(JSON.parse(await server.answer(3)).result.structuredContent, {
    path: 'src/a.ts',
    pattern: null,
    leases: [],
  })
  assert.ok(
    trace.loaded().some((url) => url.includes('/node_modules/@modelcontextprotocol/')),
    'the SDK loads for the call',
  )
  await server.end()
})

test('the answers to initialize and tools/list are the SDK’s own, byte for byte, whatever the client asks', async () => {
  await using project = await recallProject()
  const variants: object[] = [
    plainClient,
    { ...plainClient, protocolVersion: '2025-11-25' },
    { ...plainClient, protocolVersion: '2024-11-05' },
    // A version the SDK does not know: it answers with its latest.
    { ...plainClient, protocolVersion: '1999-01-01' },
    {
      protocolVersion: '2025-06-18',
      capabilities: { roots: { listChanged: true }, elicitation: {}, sampling: {}, custom: 3 },
      clientInfo: { name: 'codex-mcp-client', title: 'Codex', version: '0.50.0', extra: [1] },
      extra: true,
    },
    // What the SDK refuses is left to the SDK, which refuses it as before.
    { ...plainClient, clientInfo: { name: 5, version: '0' } },
    { ...plainClient, capabilities: { roots: { listChanged: 'yes' } } },
    { ...plainClient, capabilities: { experimental: { thing: 1 } } },
    { ...plainClient, _meta: { progressToken: {} } },
  ]
  for (const params of variants) {
    const answered: string[][] = []
    // A ping first has the SDK loaded before `initialize`: the SDK answers everything itself.
    for (const pingFirst of [false, true]) {
      const server = session([mcpEntry], project.repo.path, project.env)
      if (pingFirst) server.send({ id: 0, method: 'ping' })
      server.send(initialize(1, params))
      server.send({ id: 2, method: 'tools/list', params: {} })
      // What the SDK cannot read as a request it does not answer at all: a last ping tells when
      // everything before it was read.
      server.send({ id: 3, method: 'ping' })
      await server.answer(3)
      await server.end()
      answered.push([1, 2].map((id) => server.answers().get(id) ?? 'no answer'))
    }
    const [early, fromSdk] = answered
    assert.ok(
      early?.[0] === fromSdk?.[0],
      `initialize ${JSON.stringify(params)}: ${early?.[0]} / ${fromSdk?.[0]}`,
    )
    assert.ok(early?.[1] === fromSdk?.[1], `tools/list after ${JSON.stringify(params)}`)
  }
})
