import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { agentContext, connectTools } from '../../test/helpers/mcp-tools-client.ts'
import { git, tmpDir, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { roomReadyTools } from './room-ready-tool.ts'

test('room_ready answers the shape of sangam ready --json; a target naming nothing is INVALID_INPUT', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo({ commit: true })
  repo.write('a.txt', 'one\n')
  repo.commit('a')
  const lane = join(repo.path, '..', 'lane')
  git(repo.path, 'worktree', 'add', '-q', '-b', 'lane', lane)
  writeFileSync(join(lane, 'a.txt'), 'two\n')
  const context = agentContext({ cwd: repo.path, home: home.path, user: 'a@x.dev' })
  // The project exists (a tool that only reads starts none, D262).
  context.project()
  const client = await connectTools(roomReadyTools, context)

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
