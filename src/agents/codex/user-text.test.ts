import assert from 'node:assert/strict'
import { test } from 'node:test'
import { classifyUserText, environmentCwd, mergeUserTexts } from './user-text.ts'

const dropped = { human: '', system: '', shell: '' }

test("the person's plain words are human, trimmed", () => {
  assert.deepEqual(classifyUserText('  can you review the changes\n', 'message'), {
    ...dropped,
    human: 'can you review the changes',
  })
  assert.deepEqual(classifyUserText('# Plan\nsplit the lease table', 'message'), {
    ...dropped,
    human: '# Plan\nsplit the lease table',
  })
  assert.deepEqual(classifyUserText('<div> renders twice, why?', 'message'), {
    ...dropped,
    human: '<div> renders twice, why?',
  })
})

test('setup blocks the harness injects are dropped', () => {
  for (const injected of [
    '<user_instructions>\n\n# path: AGENTS.md\r\n</user_instructions>',
    '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>',
    '# AGENTS.md instructions for /Users/t/app\n\n<INSTRUCTIONS>\nbe terse\n</INSTRUCTIONS>',
    '<recommended_plugins>\nHere is a list of plugins\n</recommended_plugins>',
    '<permissions instructions>\nsandbox\n</permissions instructions>',
    '<skill>\n<name>imagegen</name>\n</skill>',
    '<image name=[Image #1]>',
    '</image>',
    '<some_future_block>\nanything\n</some_future_block>',
    '',
  ]) {
    assert.deepEqual(classifyUserText(injected, 'message'), dropped, injected)
  }
})

test('notices, subagent reports, review actions and hook prompts are system', () => {
  for (const notice of [
    '<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>',
    '<subagent_notification>\n{"agent_path":"x","status":{"completed":"done"}}\n</subagent_notification>',
    '<user_action>\n  <action>review</action>\n</user_action>',
    '<hook_prompt hook_run_id="r1">Run the tests.</hook_prompt>',
  ]) {
    assert.deepEqual(classifyUserText(notice, 'message'), { ...dropped, system: notice })
  }
})

test('a shell command the person ran is kept apart, as tool output', () => {
  const shell = '<user_shell_command>\n<command>ls</command>\n</user_shell_command>'
  assert.deepEqual(classifyUserText(shell, 'message'), { ...dropped, shell })
})

test('IDE and desktop wrappers: only the request is human; review context is system', () => {
  assert.deepEqual(
    classifyUserText(
      '\n# Files mentioned by the user:\n\n## a.png: /tmp/a.png\n\n## My request for Codex:\nadd it to the README\n',
      'message',
    ),
    { ...dropped, human: 'add it to the README' },
  )
  assert.deepEqual(
    classifyUserText(
      '# Diff comments:\n\n## Comment 1\nFile: a.go\n[P1] nil map\n\n## My request for Codex:\n\nFix all those',
      'message',
    ),
    {
      human: 'Fix all those',
      system: '# Diff comments:\n\n## Comment 1\nFile: a.go\n[P1] nil map',
      shell: '',
    },
  )
  assert.deepEqual(classifyUserText('# Review findings:\n\n1. [P2] leak', 'message'), {
    ...dropped,
    system: '# Review findings:\n\n1. [P2] leak',
  })
})

test("the prompts of /review presets are the person's command, as are look-alikes typed by the person", () => {
  for (const preset of [
    'Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.',
    "Review the code changes against the base branch 'main'. Start by finding the merge diff.",
    'Review the code changes introduced by commit 4b63c50 ("Annotate tracker"). Provide prioritized, actionable findings.',
  ]) {
    assert.deepEqual(classifyUserText(preset, 'message'), { ...dropped, human: preset }, preset)
    assert.deepEqual(classifyUserText(preset, 'prompt'), { ...dropped, human: preset }, preset)
  }
  const typed = 'Review the current branch changes and report actionable findings.'
  assert.deepEqual(classifyUserText(typed, 'message'), { ...dropped, human: typed })
})

test('the parts of one message merge; empty parts add nothing', () => {
  const merged = mergeUserTexts([
    classifyUserText('<environment_context><cwd>/w</cwd></environment_context>', 'message'),
    classifyUserText('first', 'message'),
    classifyUserText('<turn_aborted>x</turn_aborted>', 'message'),
    classifyUserText('second', 'message'),
  ])
  assert.deepEqual(merged, { human: 'first\n\nsecond', system: '<turn_aborted>x</turn_aborted>', shell: '' })
  assert.deepEqual(mergeUserTexts([]), dropped)
})

test("a submitted prompt that looks like a tag is the person's; wrappers still apply", () => {
  assert.deepEqual(classifyUserText('<note>keep the old API</note>', 'prompt'), {
    ...dropped,
    human: '<note>keep the old API</note>',
  })
  assert.deepEqual(
    classifyUserText('# Context from my IDE setup:\n\n## My request for Codex:\nfix it', 'prompt'),
    {
      ...dropped,
      human: 'fix it',
    },
  )
})

test('the cwd of an environment block', () => {
  assert.equal(
    environmentCwd('<environment_context>\n  <cwd>/home/u/app</cwd>\n</environment_context>'),
    '/home/u/app',
  )
  assert.equal(environmentCwd('<environment_context>\n  <shell>zsh</shell>\n</environment_context>'), null)
  assert.equal(environmentCwd('tell me about <cwd>/x</cwd>'), null)
})
