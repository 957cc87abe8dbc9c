import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseHookPayload } from '../agents/hook-payload.ts'
import { editTargets } from './edit-targets.ts'

function payload(toolName: string, toolInput: unknown): ReturnType<typeof parseHookPayload> {
  return parseHookPayload(
    JSON.stringify({
      session_id: 's1',
      hook_event_name: 'PreToolUse',
      cwd: '/r',
      tool_name: toolName,
      tool_input: toolInput,
    }),
  )
}

test('Claude file tools name their file; NotebookEdit uses notebook_path', () => {
  for (const tool of ['Write', 'Edit', 'MultiEdit']) {
    assert.deepEqual(editTargets(payload(tool, { file_path: '/r/src/a.ts' }) ?? assert.fail()), [
      '/r/src/a.ts',
    ])
  }
  const notebook = payload('NotebookEdit', { notebook_path: '/r/n.ipynb', new_source: 'x' })
  assert.deepEqual(editTargets(notebook ?? assert.fail()), ['/r/n.ipynb'])
})

test('a Codex apply_patch names every file in its patch', () => {
  const patch = '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n*** End Patch\n'
  assert.deepEqual(editTargets(payload('apply_patch', { command: patch }) ?? assert.fail()), [
    'src/a.ts',
    'src/b.ts',
  ])
})

test("opencode's edit, write and multiedit name their filePath; its patch tools name the patch's files", () => {
  for (const tool of ['edit', 'write', 'multiedit'])
    assert.deepEqual(editTargets(payload(tool, { filePath: '/r/src/a.ts' }) ?? assert.fail()), [
      '/r/src/a.ts',
    ])
  const patchText = '*** Begin Patch\n*** Add File: src/c.ts\n+x\n*** End Patch\n'
  for (const tool of ['apply_patch', 'patch'])
    assert.deepEqual(editTargets(payload(tool, { patchText }) ?? assert.fail()), ['src/c.ts'])
  assert.equal(editTargets(payload('bash', { command: 'ls' }) ?? assert.fail()), null)
})

test('tools that are not file edits are not gated; an edit without a file names nothing', () => {
  assert.equal(editTargets(payload('Bash', { command: 'ls' }) ?? assert.fail()), null)
  assert.deepEqual(editTargets(payload('Write', {}) ?? assert.fail()), [])
  assert.deepEqual(editTargets(payload('Write', 'not an object') ?? assert.fail()), [])
})

test('stdin that is not a hook payload parses to null', () => {
  for (const text of [
    '',
    'not json',
    '[]',
    '{"session_id":"s"}',
    '{"hook_event_name":"PreToolUse"}',
    'null',
  ]) {
    assert.equal(parseHookPayload(text), null, text)
  }
})
