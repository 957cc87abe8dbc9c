import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { tmpDir, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { readEnvironment } from '../config/environment.ts'
import { ManualClock } from '../shared/clock.ts'
import { silentLogger } from '../shared/logger.ts'
import { McpContext } from './mcp-context.ts'
import { registerTools } from './mcp-tool.ts'
import { roomRuleTools } from './room-rule-tools.ts'

async function agent(repo: string, home: string, env: Record<string, string>): Promise<Client> {
  const server = new McpServer({ name: 'sangam', version: '0' })
  const context = new McpContext({
    env: readEnvironment({
      HOME: home,
      SANGAM_HOME: join(home, '.sangam'),
      SANGAM_USER: 'alice@x.dev',
      ...env,
    }),
    clock: new ManualClock(Date.parse('2026-12-01T23:30:00Z')),
    log: silentLogger,
    cwd: repo,
    version: '0',
    clientName: () => 'claude-code',
  })
  // The project exists (a tool that only reads starts none, D262).
  context.project()
  registerTools(server, roomRuleTools, context)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'claude-code', version: '0' })
  await client.connect(clientSide)
  return client
}

interface Rule {
  readonly name: string
  readonly rung: string
  readonly decided: boolean
  readonly enforced: boolean
}

test('room_rules lists the house rules as the CLI does, and takes no change', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo({ commit: true })
  const claude = await agent(repo.path, home.path, { CLAUDE_CODE_SESSION_ID: 'c-1234567890' })
  const listed = await claude.callTool({ name: 'room_rules', arguments: {} })
  assert.notEqual(listed.isError, true)
  const { rules } = listed.structuredContent as { rules: Rule[] }
  assert.deepEqual(
    rules.map((rule) => [rule.name, rule.rung, rule.decided, rule.enforced]),
    [
      ['one-actor-per-worktree', 'warn', false, false],
      ['file-overlap', 'warn', false, false],
      ['stale-worktrees', 'advise', false, false],
      ['lease-collision', 'refuse', false, true],
    ],
  )
  const { tools } = await claude.listTools()
  const properties = tools.find((tool) => tool.name === 'room_rules')?.inputSchema.properties ?? {}
  assert.deepEqual(Object.keys(properties), [])
})

test('room_alerts answers the alerts shape; an empty room has none', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo({ commit: true })
  const claude = await agent(repo.path, home.path, { CLAUDE_CODE_SESSION_ID: 'c-1234567890' })
  const answer = await claude.callTool({ name: 'room_alerts', arguments: {} })
  assert.notEqual(answer.isError, true, JSON.stringify(answer.content))
  const { alerts } = answer.structuredContent as { alerts: { type: string }[] }
  // The fixture's commit is a month old and nobody works there: only the stale worktree.
  assert.deepEqual(
    alerts.map((alert) => alert.type),
    ['stale-worktrees'],
  )
})
