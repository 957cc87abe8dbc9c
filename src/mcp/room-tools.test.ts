import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { agentContext, connectTools } from '../../test/helpers/mcp-tools-client.ts'
import { tmpDir, tmpGitRepo } from '../../test/helpers/tmp-git-repo.ts'
import { roomTools } from './room-tools.ts'

function agent(repo: string, home: string, env: Record<string, string>): Promise<Client> {
  return connectTools(roomTools, agentContext({ cwd: repo, home, env }))
}

type Structured = Record<string, never>

test('an agent posts, hands off, opens and closes a thread and reads the board through the room tools', async () => {
  await using home = tmpDir()
  await using repo = tmpGitRepo({ commit: true })
  const claude = await agent(repo.path, home.path, { CLAUDE_CODE_SESSION_ID: 'c-1234567890' })
  const posted = await claude.callTool({
    name: 'room_post',
    arguments: { text: 'taking the parser', kind: 'allocation' },
  })
  assert.notEqual(posted.isError, true, JSON.stringify(posted.content))
  const message = (posted.structuredContent as { message: { sender: string; kind: string } }).message
  assert.equal(message.sender, 'claude-c-123456', 'a session without presence gets a derived handle')
  assert.equal(message.kind, 'allocation')

  const opened = await claude.callTool({
    name: 'room_thread_open',
    arguments: { title: 'Which schema?', audience: 'human-loop' },
  })
  const thread = (opened.structuredContent as { thread: { id: string; participants: string[] } }).thread
  assert.deepEqual(thread.participants, ['@claude-c-123456', '@human'])
  const board = await claude.callTool({ name: 'room_board', arguments: {} })
  const structured = board.structuredContent as {
    columns: Record<string, { threadId: string }[]>
    lanes: unknown[]
    lock: unknown
  }
  assert.equal(structured.columns.blocked?.[0]?.threadId, thread.id)
  assert.deepEqual([structured.lanes, structured.lock], [[], null], 'a project without lanes adds nothing')

  const handed = await claude.callTool({
    name: 'room_handoff',
    arguments: {
      text: 'parser done',
      paths: ['src/parser.ts'],
      proof: 'npm test',
      nextOwner: '@human',
      threadId: thread.id,
    },
  })
  assert.notEqual(handed.isError, true, JSON.stringify(handed.content))
  const handoff = (
    handed.structuredContent as { message: { kind: string; recipients: string[]; text: string } }
  ).message
  assert.equal(handoff.kind, 'handoff')
  assert.deepEqual(handoff.recipients, ['@human'])
  assert.match(handoff.text, /- next owner: @human/)

  await claude.callTool({ name: 'room_thread_close', arguments: { id: thread.id } })
  const refused = await claude.callTool({
    name: 'room_post',
    arguments: { text: 'late', threadId: thread.id },
  })
  assert.equal(refused.isError, true)
  const unknown = await claude.callTool({ name: 'room_post', arguments: { text: 'hi', to: ['@bob'] } })
  assert.equal(unknown.isError, true)

  const read = await claude.callTool({ name: 'room_read', arguments: {} })
  const texts = (read.structuredContent as { messages: { text: string }[] }).messages.map((m) => m.text)
  assert.equal(texts.length, 2)
  const threads = await claude.callTool({ name: 'room_threads', arguments: { all: true } })
  assert.equal((threads.structuredContent as Structured & { threads: unknown[] }).threads.length, 1)
})
