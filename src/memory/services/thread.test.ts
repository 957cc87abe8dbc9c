import assert from 'node:assert/strict'
import { test } from 'node:test'
import { memoryFixture } from '../../../test/helpers/memory-fixture.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { MemoryThread, maxThreadItems } from './thread.ts'

const main = '/home/dev/.claude/projects/-work-widget/s1.jsonl'
const t = (second: number): string =>
  new Date(Date.parse('2026-11-09T10:00:00Z') + second * 1000).toISOString()

test('a tool output expands to its human turn and what the agent did until the next one', async () => {
  await using memory = memoryFixture()
  const output = Array.from({ length: 50 }, (_, i) => `src/file-${i}.ts: lease`).join('\n')
  const ids = memory.store.add(
    { kind: 'human', text: 'an earlier question', source: main, offset: 0, at: t(0) },
    { kind: 'human', text: 'find every lease read', source: main, offset: 100, at: t(10) },
    { kind: 'thinking', text: 'grep is quickest', source: main, offset: 200, at: t(11) },
    { kind: 'tool_call', text: 'git grep -n lease', toolName: 'Bash', source: main, offset: 300, at: t(12) },
    { kind: 'tool_output', text: output, toolName: 'Bash', source: main, offset: 400, at: t(13) },
    { kind: 'assistant', text: 'Fifty reads, all in src/.', source: main, offset: 500, at: t(14) },
    { kind: 'human', text: 'now rename them', source: main, offset: 600, at: t(20) },
    { kind: 'assistant', text: 'renaming', source: main, offset: 700, at: t(21) },
  )
  const thread = new MemoryThread(memory.db).thread(ids[4] ?? '')
  assert.equal(thread.human?.id, ids[1])
  assert.deepEqual(
    thread.items.map((item) => item.id),
    ids.slice(2, 6),
  )
  const shown = thread.items.find((item) => item.focus)
  assert.equal(shown?.id, ids[4])
  // The output asked for shows its first 40 lines; any other tool output of the turn, its first 6.
  assert.ok(shown?.truncated)
  assert.equal(shown?.text.split('\n').length, 41)
  assert.match(shown?.text ?? '', /… 10 more lines$/)
  assert.equal(thread.session.id, 'session-1')
  assert.equal(thread.omitted, 0)
  const fromAnswer = new MemoryThread(memory.db).thread(ids[5] ?? '')
  const other = fromAnswer.items.find((item) => item.id === ids[4])
  assert.equal(other?.text.split('\n').length, 7)
  assert.match(other?.text ?? '', /… 44 more lines$/)
})

test('a human event is its own turn; the order is the file order, not the timestamps', async () => {
  await using memory = memoryFixture()
  const ids = memory.store.add(
    { kind: 'human', text: 'ship it', source: main, offset: 0, at: t(5) },
    { kind: 'assistant', text: 'second line, earlier clock', source: main, offset: 50, at: t(3) },
    { kind: 'tool_call', text: 'npm test', source: main, offset: 80, part: 0, at: t(3) },
    { kind: 'assistant', text: 'same line, next part', source: main, offset: 80, part: 1, at: t(3) },
  )
  const thread = new MemoryThread(memory.db).thread(ids[0] ?? '')
  assert.equal(thread.human?.id, ids[0])
  assert.equal(thread.human?.focus, true)
  assert.deepEqual(
    thread.items.map((item) => item.id),
    ids.slice(1),
  )
})

test("a subagent's event takes the human turn from the session's main transcript", async () => {
  await using memory = memoryFixture()
  const sub = '/home/dev/.claude/projects/-work-widget/s1/subagents/agent-a1.jsonl'
  const ids = memory.store.add(
    { kind: 'human', text: 'review the parser', source: main, offset: 0, at: t(0) },
    { kind: 'tool_call', text: 'Task: review parser', toolName: 'Task', source: main, offset: 100, at: t(1) },
    { kind: 'human', text: 'review parser.ts for torn lines', source: sub, offset: 0, at: t(2) },
    { kind: 'assistant', text: 'parser looks fine', source: sub, offset: 90, at: t(3) },
    {
      kind: 'tool_output',
      text: 'subagent: parser looks fine',
      toolName: 'Task',
      source: main,
      offset: 200,
      at: t(4),
    },
    { kind: 'human', text: 'thanks', source: main, offset: 300, at: t(9) },
  )
  const thread = new MemoryThread(memory.db).thread(ids[3] ?? '')
  assert.equal(thread.human?.id, ids[0])
  assert.deepEqual(
    thread.items.map((item) => [item.id, item.subagent]),
    [
      [ids[1], false],
      [ids[2], true],
      [ids[3], true],
      [ids[4], false],
    ],
  )
})

test('notes written during the turn appear in it; a note outside any session stands alone', async () => {
  await using memory = memoryFixture()
  const [human, , note, loose] = memory.store.add(
    { kind: 'human', text: 'pick a queue', source: main, offset: 0, at: t(0) },
    { kind: 'assistant', text: 'using a lock', source: main, offset: 100, at: t(1) },
    { kind: 'note', vendor: 'sangam', text: 'decided: one integration lock', at: t(2) },
    { kind: 'note', vendor: 'sangam', sessionId: 'cli', text: 'from the shell', at: t(3) },
  )
  const thread = new MemoryThread(memory.db).thread(note ?? '')
  assert.equal(thread.human?.id, human)
  assert.deepEqual(
    thread.items.map((item) => item.kind),
    ['assistant', 'note'],
  )
  const alone = new MemoryThread(memory.db).thread(loose ?? '')
  assert.equal(alone.human, null)
  assert.deepEqual(
    alone.items.map((item) => item.id),
    [loose],
  )
})

test('a very long turn is cut around the focus and says how much was left out', async () => {
  await using memory = memoryFixture()
  const ids = memory.store.add(
    { kind: 'human', text: 'refactor everything', source: main, offset: 0, at: t(0) },
    ...Array.from({ length: 400 }, (_, i) => ({
      kind: 'tool_call' as const,
      text: `edit ${i}`,
      source: main,
      offset: 10 + i * 10,
      at: t(1 + i),
    })),
  )
  const focus = ids[300] ?? ''
  const thread = new MemoryThread(memory.db).thread(focus)
  assert.equal(thread.items.length, maxThreadItems)
  assert.equal(thread.omitted, 400 - maxThreadItems)
  assert.ok(thread.items.some((item) => item.id === focus && item.focus))
})

test('an unknown id is NOT_FOUND with a message that says where ids come from', async () => {
  await using memory = memoryFixture()
  assert.throws(
    () => new MemoryThread(memory.db).thread('ev_missing'),
    (error: unknown) =>
      error instanceof SangamError &&
      error.code === ErrorCode.NotFound &&
      /ev_missing.*search/.test(error.message),
  )
})
