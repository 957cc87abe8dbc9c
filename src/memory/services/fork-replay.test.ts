import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { type CaptureFixture, captureFixture } from '../../../test/helpers/capture-fixture.ts'
import { corpusDir } from '../../../test/helpers/corpus.ts'
import { claudeReader } from '../../agents/claude/claude-reader.ts'
import { codexReader } from '../../agents/codex/codex-reader.ts'

/*
 * A Codex subagent's rollout starts with a copy of its parent's history (formats.md B2.3). The
 * parent here is a real 0.125 rollout from the corpus; the child file is built the way Codex builds
 * one: its own session_meta, every line of the parent re-stamped with the spawn time, then its own
 * turn.
 */
const parentFile = join(corpusDir, 'codex', 'entireio__git-sync__8f_eaf84a600f_0_full.jsonl')
const parentId = '019ddd6f-3680-7fb3-8f93-e567af97d303'
const childId = '019de000-0000-7000-8000-00000000c41d'
const childTurn = '019de000-0001-7000-8000-000000000001'
const spawnedAt = '2026-04-30T09:00:00.000Z'

function parentRollout(): string {
  const text = readFileSync(parentFile, 'utf8')
  return text.endsWith('\n') ? text : `${text}\n`
}

function childRollout(): string {
  const own = (type: string, payload: Record<string, unknown>): string =>
    `${JSON.stringify({ timestamp: spawnedAt, type, payload })}\n`
  const copied = parentRollout()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `${JSON.stringify({ ...(JSON.parse(line) as object), timestamp: spawnedAt })}\n`)
  return [
    own('session_meta', {
      id: childId,
      forked_from_id: parentId,
      cwd: '/Users/soph/Work/entire/devenv/gitsync',
      cli_version: '0.125.0',
      source: { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1 } } },
    }),
    ...copied,
    own('event_msg', { type: 'task_started', turn_id: childTurn }),
    own('turn_context', { turn_id: childTurn, cwd: '/Users/soph/Work/entire/devenv/gitsync' }),
    own('event_msg', { type: 'user_message', message: 'Check the validation tests.', images: [] }),
    own('event_msg', { type: 'agent_message', message: 'They pass.' }),
  ].join('')
}

function capture(f: CaptureFixture, name: string, content: string): number {
  const path = f.write(name, content)
  const result = f
    .capture({ scope: { since: null, contains: () => true }, readerFor: () => codexReader })
    .syncFile({ path, vendor: 'codex' }, { mode: 'backfill' })
  assert.equal(result.status, 'caught-up')
  return result.inserted
}

const ofParent = (f: CaptureFixture) =>
  f
    .events()
    .filter((event) => event.sessionId === parentId)
    .map((event) => [event.id, event.kind, event.text])

test("a subagent's copy of its parent's history is captured with the ids the parent's own file gives", async () => {
  await using parent = captureFixture()
  await using child = captureFixture()
  capture(parent, 'rollout-parent.jsonl', parentRollout())
  capture(child, 'rollout-child.jsonl', childRollout())

  const expected = ofParent(parent)
  const humans = expected.filter(([, kind]) => kind === 'human')
  assert.ok(humans.length >= 2, 'the parent file holds the person’s prompts')
  // The parent's file is not here (swept, another machine, out of the window): the copy holds them.
  assert.deepEqual(ofParent(child), expected)
  assert.deepEqual(
    child
      .events()
      .filter((event) => event.sessionId === childId)
      .map((event) => [event.kind, event.text]),
    [
      ['system', 'Check the validation tests.'],
      ['assistant', 'They pass.'],
    ],
  )
})

test('whichever of parent and child is read first, the parent history is stored once', async () => {
  for (const order of [
    ['parent', 'child'],
    ['child', 'parent'],
  ]) {
    await using f = captureFixture()
    const inserted = order.map((which) =>
      which === 'parent'
        ? capture(f, 'rollout-parent.jsonl', parentRollout())
        : capture(f, 'rollout-child.jsonl', childRollout()),
    )
    const parentEvents = ofParent(f)
    assert.ok(parentEvents.length > 10)
    assert.equal(new Set(parentEvents.map(([id]) => id)).size, parentEvents.length)
    assert.equal(f.events().length, parentEvents.length + 2, `order ${order.join(' then ')}`)
    // The second file adds only what the first did not hold: the child's own two events, or nothing.
    assert.equal(inserted[1], order[1] === 'child' ? 2 : 0)
  }
})

test("a Claude subagent's transcript numbers its events apart from its session's, though it carries the session's id", async () => {
  await using f = captureFixture()
  const record = (extra: Record<string, unknown>) =>
    `${JSON.stringify({
      type: 'assistant',
      sessionId: 'sess-1',
      cwd: '/work/widget',
      version: '2.1.80',
      timestamp: '2026-11-29T10:00:00.000Z',
      message: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'On it.' }] },
      ...extra,
    })}\n`
  const options = { scope: { since: null, contains: () => true }, readerFor: () => claudeReader }
  const main = f.write(
    'sess-1.jsonl',
    record({
      uuid: 'u1',
      message: { id: 'm1', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'On it.' }] },
    }),
  )
  const agent = f.write(
    'sess-1/subagents/agent-a1.jsonl',
    record({
      uuid: 'u2',
      isSidechain: true,
      agentId: 'a1',
      message: { id: 'm2', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'On it.' }] },
    }),
  )
  f.capture(options).syncFile({ path: main, vendor: 'claude' }, { mode: 'backfill' })
  f.capture(options).syncFile({ path: agent, vendor: 'claude' }, { mode: 'backfill' })
  const events = f.events()
  assert.deepEqual(
    events.map((event) => [event.kind, event.sessionId, event.text]),
    [
      ['assistant', 'sess-1', 'On it.'],
      ['assistant', 'sess-1', 'On it.'],
    ],
  )
  assert.notEqual(events[0]?.id, events[1]?.id)
})
