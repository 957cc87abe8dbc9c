import assert from 'node:assert/strict'
import { test } from 'node:test'
import { claudeAnswerAsGemini, geminiEventOf, geminiPayloadAsClaude } from './gemini-hook-events.ts'

/** What Gemini CLI 0.61.0 wrote on a BeforeTool hook's stdin in the lab. */
const beforeTool = JSON.stringify({
  session_id: 'c676da71-3a52-4d6b-94cc-69b8689cfa2c',
  transcript_path: '/home/u/.gemini/tmp/proj/chats/session-2026-12-04T13-11-c676da71.jsonl',
  cwd: '/work/proj',
  hook_event_name: 'BeforeTool',
  timestamp: '2026-12-04T13:11:02.188Z',
  tool_name: 'write_file',
  tool_input: { file_path: '/work/proj/a.ts', content: 'export const a = 2\n' },
})

test("Gemini CLI's events and file tools become the agent hook's", () => {
  const payload = JSON.parse(geminiPayloadAsClaude(beforeTool)) as Record<string, unknown>
  assert.equal(payload.hook_event_name, 'PreToolUse')
  assert.equal(payload.tool_name, 'Write')
  assert.deepEqual(payload.tool_input, { file_path: '/work/proj/a.ts', content: 'export const a = 2\n' })
  assert.equal(geminiEventOf(beforeTool), 'BeforeTool')
  const replace = geminiPayloadAsClaude(beforeTool.replace('"write_file"', '"replace"'))
  assert.equal((JSON.parse(replace) as { tool_name: string }).tool_name, 'Edit')
  const agent = geminiPayloadAsClaude(JSON.stringify({ hook_event_name: 'BeforeAgent', session_id: 's' }))
  assert.equal((JSON.parse(agent) as { hook_event_name: string }).hook_event_name, 'UserPromptSubmit')
  assert.equal(geminiPayloadAsClaude('not json'), 'not json', 'left for the hook to report as malformed')
})

test("the agent hook's answers become Gemini CLI's: a denial, a context, a hand-over", () => {
  const deny = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'src/a.ts is leased to bob@example.com',
    },
  })
  assert.deepEqual(JSON.parse(claudeAnswerAsGemini('BeforeTool', deny)), {
    decision: 'deny',
    reason: 'src/a.ts is leased to bob@example.com',
  })
  const brief = JSON.stringify({
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'brief' },
  })
  assert.deepEqual(JSON.parse(claudeAnswerAsGemini('SessionStart', brief)), {
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'brief' },
  })
  const note = JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'unchecked' },
  })
  assert.deepEqual(JSON.parse(claudeAnswerAsGemini('BeforeTool', note)), { systemMessage: 'unchecked' })
  const handOver = JSON.stringify({ decision: 'block', reason: '@ann asks: rebase' })
  assert.deepEqual(JSON.parse(claudeAnswerAsGemini('AfterAgent', handOver)), {
    decision: 'deny',
    reason: '@ann asks: rebase',
  })
  assert.equal(claudeAnswerAsGemini('AfterAgent', '{}\n'), '', 'a resting answer says nothing')
  assert.equal(claudeAnswerAsGemini('BeforeTool', ''), '', 'an allowed edit says nothing')
})
