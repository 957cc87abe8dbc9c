import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { agentContext, connectTools } from '../../test/helpers/mcp-tools-client.ts'
import { tmpDir, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { roomRuleTools } from './room-rule-tools.ts'

function agent(repo: string, home: string, env: Record<string, string>): Promise<Client> {
  const context = agentContext({ cwd: repo, home, env })
  // The project exists (a tool that only reads starts none, D262).
  context.project()
  return connectTools(roomRuleTools, context)
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
