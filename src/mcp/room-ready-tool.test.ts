import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { git, tmpDir, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { readEnvironment } from '../config/environment.ts'
import { ManualClock } from '../shared/clock.ts'
import { silentLogger } from '../shared/logger.ts'
import { McpContext } from './mcp-context.ts'
import { registerTools } from './mcp-tool.ts'
import { roomReadyTools } from './room-ready-tool.ts'

test('room_ready answers the shape of sangam ready --json; a target naming nothing is INVALID_INPUT', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo({ commit: true })
  repo.write('a.txt', 'one\n')
  repo.commit('a')
  const lane = join(repo.path, '..', 'lane')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane', lane)
  writeFileSync(join(lane, 'a.txt'), 'two\n')
  const server = new McpServer({ name: 'sangam', version: '0' })
  const context = new McpContext({
    env: readEnvironment({
      HOME: home.path,
      SANGAM_HOME: join(home.path, '.sangam'),
      SANGAM_USER: 'a@x.dev',
    }),
    clock: new ManualClock(Date.parse('2026-12-01T23:30:00Z')),
    log: silentLogger,
    cwd: repo.path,
    version: '0',
    clientName: () => 'claude-code',
  })
  // The project exists (a tool that only reads starts none, D262).
  context.project()
  registerTools(server, roomReadyTools, context)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'claude-code', version: '0' })
  await client.connect(clientSide)

  const answer = await client.callTool({ name: 'room_ready', arguments: {} })
  assert.notEqual(answer.isError, true, JSON.stringify(answer.content))
  const verdict = answer.structuredContent as {
    into: string
    clean: number
    branches: { branch: string; uncommitted: number }[]
  }
  assert.equal(verdict.into, 'main')
  assert.equal(verdict.clean, 1)
  assert.deepEqual(
    verdict.branches.map((b) => [b.branch, b.uncommitted]),
    [['lane', 1]],
  )
  const refused = await client.callTool({ name: 'room_ready', arguments: { into: 'nowhere' } })
  assert.equal(refused.isError, true)
  assert.match(JSON.stringify(refused.content), /INVALID_INPUT: --into \\"nowhere\\" names no branch/)
  await client.close()
})
