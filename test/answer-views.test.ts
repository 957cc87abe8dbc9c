import assert from 'node:assert/strict'
import { test } from 'node:test'
import { z } from 'zod'
import { sessionViewSchema } from '../src/delivery/protocol/session-view.ts'
import { laneStatusViewSchema } from '../src/lanes/protocol/lane-status-view.ts'
import { releaseOutcomeViewSchema, whoHasViewSchema } from '../src/leases/protocol/lease-view.ts'
import { noteViewSchema } from '../src/memory/protocol/note-view.ts'
import { searchResultViewSchema } from '../src/memory/protocol/search-view.ts'
import { threadResultViewSchema } from '../src/memory/protocol/thread-view.ts'
import { claimAnswerViewSchema } from '../src/project/protocol/claim-view.ts'
import { projectBoardViewSchema } from '../src/project/protocol/project-board-view.ts'
import { readyAnswerViewSchema } from '../src/project/protocol/ready-answer-view.ts'
import { collisionsViewSchema } from '../src/room/protocol/board-view.ts'
import { messageViewSchema, threadViewSchema } from '../src/room/protocol/message-view.ts'
import { alertViewSchema, ruleViewSchema } from '../src/room/protocol/rules-view.ts'
import { targetsViewSchema } from '../src/room/protocol/targets-view.ts'
import { laneProject } from './helpers/lane-fixture.ts'
import { connectMcp } from './helpers/mcp-client.ts'
import { recallProject } from './helpers/recall-project.ts'
import { isolatedEnv, runCliJson } from './helpers/run-cli.ts'
import { assertAnswer } from './helpers/strict-schema.ts'
import { startUi } from './helpers/ui-process.ts'

/**
 * Each answer is declared once, as a view schema in its feature's protocol/ (issue 21). Here the
 * real CLI's `--json`, the real MCP server's structuredContent and the dashboard's answers, from
 * real runs, parse with it strictly: a field one of them adds or drops fails, naming it.
 */

const messageAnswer = z.object({ message: messageViewSchema })
const threadAnswer = z.object({ thread: threadViewSchema })
const answers = {
  post: messageAnswer,
  handoff: messageAnswer,
  read: z.object({ messages: z.array(messageViewSchema) }),
  threadOpen: threadAnswer,
  threadClose: threadAnswer,
  threads: z.object({ threads: z.array(threadViewSchema), collisions: collisionsViewSchema }),
  board: projectBoardViewSchema,
  rules: z.object({ rules: z.array(ruleViewSchema) }),
  alerts: z.object({ alerts: z.array(alertViewSchema), collisions: collisionsViewSchema }),
  search: searchResultViewSchema,
  thread: threadResultViewSchema,
  note: noteViewSchema,
  claim: claimAnswerViewSchema,
  release: releaseOutcomeViewSchema,
  whoHas: whoHasViewSchema,
  status: laneStatusViewSchema,
  targets: targetsViewSchema,
  ready: readyAnswerViewSchema,
  sessions: z.object({ sessions: z.array(sessionViewSchema) }),
} as const

type ToolResult = { isError?: unknown; structuredContent?: unknown; content?: unknown }

function structured(result: ToolResult, tool: string): unknown {
  assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result.content)}`)
  assert.ok(result.structuredContent, `${tool} answers with structured content`)
  return result.structuredContent
}

test("the room's, memory's and leases' answers, from the CLI and from MCP, each parse with its one view schema", async () => {
  await using project = await recallProject({
    CLAUDE_CODE_SESSION_ID: '1af7fc5e-8455-4414-9ccd-011d40f70b2a',
  })
  const [eventId = ''] = project.add(
    { kind: 'human', text: 'keep the fencing token increasing', at: Date.now() - 60_000 },
    { kind: 'assistant', text: 'the fencing token is a counter', at: Date.now() - 50_000 },
  )
  const cwd = project.repo.path
  const human = isolatedEnv(project.home.path, { SANGAM_USER: 'asha@example.com' })
  const cli = (args: readonly string[]) => runCliJson(args, { cwd, env: human })

  const posted = await cli(['post', 'who owns the projection?'])
  assertAnswer(answers.post, posted, 'post --json')
  assertAnswer(answers.read, await cli(['read']), 'read --json')
  const opened = (await cli(['thread-open', '--title', 'the schema', '--path', 'a.ts'])) as {
    thread: { id: string }
  }
  assertAnswer(answers.threadOpen, opened, 'thread-open --json')
  assertAnswer(answers.threads, await cli(['threads']), 'threads --json')
  assertAnswer(answers.board, await cli(['board']), 'board --json')
  assertAnswer(answers.threadClose, await cli(['thread-close', opened.thread.id]), 'thread-close --json')
  assertAnswer(answers.rules, await cli(['rules']), 'rules --json')
  assertAnswer(answers.alerts, await cli(['alerts']), 'alerts --json')
  assertAnswer(answers.search, await cli(['search', 'fencing']), 'search --json')
  assertAnswer(answers.thread, await cli(['thread', eventId]), 'thread --json')
  assertAnswer(answers.note, await cli(['note', 'the token is a counter']), 'note --json')
  assertAnswer(answers.claim, await cli(['claim', 'a.ts', '--reason', 'refactor']), 'claim --json')
  assertAnswer(answers.whoHas, await cli(['who-has', 'a.ts']), 'who-has --json')
  assertAnswer(answers.release, await cli(['release']), 'release --json')
  assertAnswer(answers.targets, await cli(['targets']), 'targets --json')
  assertAnswer(answers.sessions, await cli(['sessions']), 'sessions --json')

  await using mcp = await connectMcp(cwd, project.env)
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    structured((await mcp.call(tool, args)) as ToolResult, tool)
  assertAnswer(answers.post, await call('room_post', { text: 'I take the projection' }), 'room_post')
  assertAnswer(answers.handoff, await call('room_handoff', { text: 'done', paths: ['a.ts'] }), 'room_handoff')
  assertAnswer(answers.read, await call('room_read'), 'room_read')
  const thread = (await call('room_thread_open', { title: 'a question' })) as { thread: { id: string } }
  assertAnswer(answers.threadOpen, thread, 'room_thread_open')
  assertAnswer(answers.threads, await call('room_threads', { all: true }), 'room_threads')
  assertAnswer(answers.board, await call('room_board'), 'room_board')
  assertAnswer(
    answers.threadClose,
    await call('room_thread_close', { id: thread.thread.id }),
    'room_thread_close',
  )
  assertAnswer(answers.rules, await call('room_rules'), 'room_rules')
  assertAnswer(answers.alerts, await call('room_alerts'), 'room_alerts')
  assertAnswer(answers.search, await call('ctx_search', { query: 'fencing' }), 'ctx_search')
  assertAnswer(answers.thread, await call('ctx_thread', { eventId }), 'ctx_thread')
  assertAnswer(answers.note, await call('ctx_note', { text: 'a decision' }), 'ctx_note')
  assertAnswer(answers.claim, await call('ctx_claim', { patterns: ['b.ts'], reason: 'testing' }), 'ctx_claim')
  assertAnswer(answers.whoHas, await call('ctx_who_has', { path: 'b.ts' }), 'ctx_who_has')
  assertAnswer(answers.release, await call('ctx_release'), 'ctx_release')
  assertAnswer(answers.targets, await call('room_targets'), 'room_targets')

  await using ui = await startUi(['ui', '--no-open', '--json'], { cwd, env: human })
  const get = async (path: string) => {
    const answer = await ui.request(path)
    assert.equal(answer.status, 200, `${path}: ${answer.body}`)
    return answer.json()
  }
  const sent = await ui.request('/api/messages', { method: 'POST', json: { text: 'from the browser' } })
  assert.equal(sent.status, 200, sent.body)
  assertAnswer(answers.post, sent.json(), 'POST /api/messages')
  assertAnswer(answers.read, await get('/api/messages'), 'GET /api/messages')
  assertAnswer(answers.threads, await get('/api/threads?all=1'), 'GET /api/threads')
  assertAnswer(answers.board, await get('/api/board'), 'GET /api/board')
  assertAnswer(answers.targets, await get('/api/targets'), 'GET /api/targets')
  assertAnswer(answers.thread, await get(`/api/timeline/${eventId}/thread`), 'GET /api/timeline/:id/thread')
})

test("the lanes' status, ready and the board with lanes, from the CLI and from MCP, parse with their view schemas", async () => {
  await using p = await laneProject()
  const alice = await p.lane('alice')
  assertAnswer(answers.status, await p.json(['status']), 'status --json')
  assertAnswer(answers.board, await p.json(['board']), 'board --json (with lanes)')
  assertAnswer(answers.ready, await p.json(['ready']), 'ready --json')
  await using mcp = await connectMcp(alice, isolatedEnv(p.home.path, { SANGAM_USER: 'alice@x.dev' }))
  const call = async (tool: string) => structured((await mcp.call(tool, {})) as ToolResult, tool)
  assertAnswer(answers.status, await call('lane_status'), 'lane_status')
  assertAnswer(answers.board, await call('room_board'), 'room_board (with lanes)')
  assertAnswer(answers.ready, await call('room_ready'), 'room_ready')
})
