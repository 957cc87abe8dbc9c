import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { test } from 'node:test'
import { corpusDir, corpusFiles, readTranscriptFile } from '../../../test/helpers/corpus.ts'
import type { ReadEvent } from '../transcript-reader.ts'
import { claudeReader } from './claude-reader.ts'

/** Every Claude Code line in the corpus is known today; a new one must be listed here with why. */
const expectedUnknown: Record<string, string> = {}

/** Text the CLI injects, which must never pass for the human's own words. */
const injectedMarkers = [
  '<system-reminder>',
  '<command-name>',
  '<command-message>',
  '<local-command',
  '<bash-stdout>',
  '<task-notification>',
  'Caveat:',
  'This session is being continued',
  '[Request interrupted',
]

const files = corpusFiles('claude')

function claudeFile(name: string): string {
  return name.startsWith('agentlab__') ? join(corpusDir, 'generated', name) : join(corpusDir, 'claude', name)
}

function rawRecords(path: string): Map<number, Record<string, unknown>> {
  const records = new Map<number, Record<string, unknown>>()
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      try {
        records.set(index + 1, JSON.parse(line))
      } catch {
        // blank, torn or multi-value lines are checked through the reader's outcomes
      }
    })
  return records
}

function kindCounts(events: readonly ReadEvent[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const event of events) counts[event.kind] = (counts[event.kind] ?? 0) + 1
  return counts
}

test('the corpus holds Claude Code transcripts from 1.0.98 to 2.1.332', () => {
  const versions = new Set(
    files.map((path) => claudeReader.facts(readTranscriptFile(path, claudeReader).state).cliVersion),
  )
  for (const version of ['1.0.98', '2.0.76', '2.1.80', '2.1.210', '2.1.332'])
    assert.ok(versions.has(version), version)
})

for (const path of files) {
  const name = basename(path)

  test(`${name}: every line is accounted for once, and none is unknown unless listed`, () => {
    const nonBlank = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '').length
    const { lines } = readTranscriptFile(path, claudeReader)
    assert.equal(lines.length, nonBlank)
    for (const line of lines) {
      assert.notEqual(line.outcome.class, 'unparseable', `line ${line.lineNo}`)
      if (line.outcome.class === 'skipped')
        assert.ok(line.outcome.reason, `line ${line.lineNo} has a skip reason`)
      if (line.outcome.class === 'captured')
        assert.ok(line.events.length > 0, `line ${line.lineNo} captured nothing`)
      if (line.outcome.class === 'unknown')
        assert.ok(expectedUnknown[`${name}:${line.lineNo}`], `line ${line.lineNo}`)
    }
  })

  test(`${name}: no human event holds text the CLI injected`, () => {
    for (const event of readTranscriptFile(path, claudeReader).events) {
      if (event.kind !== 'human') continue
      for (const marker of injectedMarkers)
        assert.ok(!event.text.includes(marker), `${marker} in ${event.text}`)
    }
  })

  test(`${name}: events carry their record's session, version, cwd and time`, () => {
    const records = rawRecords(path)
    for (const line of readTranscriptFile(path, claudeReader).lines) {
      const record = records.get(line.lineNo)
      if (record === undefined) continue
      for (const event of line.events) {
        if (typeof record.sessionId === 'string') assert.equal(event.sessionId, record.sessionId)
        if (typeof record.version === 'string') assert.equal(event.cliVersion, record.version)
        if (typeof record.cwd === 'string') assert.equal(event.cwd, record.cwd)
        if (typeof record.gitBranch === 'string') assert.equal(event.branch, record.gitBranch || null)
        if (typeof record.timestamp === 'string') assert.equal(event.at, Date.parse(record.timestamp))
        assert.ok(event.sessionId !== '' && event.at > 0, `line ${line.lineNo}`)
      }
    }
  })

  test(`${name}: a tool result is named after the call it answers`, () => {
    const calls = new Map<string, string | null>()
    for (const event of readTranscriptFile(path, claudeReader).events) {
      if (event.kind === 'tool_call' && event.callId !== null) calls.set(event.callId, event.toolName)
      if (event.kind === 'tool_output' && event.callId !== null && calls.has(event.callId)) {
        assert.equal(event.toolName, calls.get(event.callId), event.callId)
      }
    }
  })

  test(`${name}: facts name the first working directory and the session`, () => {
    const records = [...rawRecords(path).values()]
    const facts = claudeReader.facts(readTranscriptFile(path, claudeReader).state)
    assert.equal(facts.firstCwd, records.find((record) => typeof record.cwd === 'string')?.cwd)
    assert.equal(
      facts.sessionId,
      records.findLast((record) => typeof record.sessionId === 'string')?.sessionId,
    )
  })
}

test('the typed prompt "Review PR #36" is one human event on its branch and version', () => {
  const { events } = readTranscriptFile(
    claudeFile('entireio__entire-graph__03_0f3d39319d_1_full.jsonl'),
    claudeReader,
  )
  const prompts = events.filter((event) => event.text === 'Review PR #36')
  assert.equal(prompts.length, 1)
  assert.deepEqual(prompts[0], {
    kind: 'human',
    at: Date.parse('2026-07-20T21:27:59.089Z'),
    sessionId: 'fffff083-8032-496a-81ae-244c3c25ea0f',
    cliVersion: '2.1.210',
    cwd: '/Users/thomi/Projects/entire-graph',
    branch: 'fix/35-diff-overload-key',
    text: 'Review PR #36',
    toolName: null,
    callId: null,
    joinKey: null,
  })
})

test('a 2.1.210 session yields its pinned events: hooks, an API error and /login are recalled', () => {
  const { events, lines } = readTranscriptFile(
    claudeFile('entireio__entire-graph__03_0f3d39319d_1_full.jsonl'),
    claudeReader,
  )
  assert.deepEqual(kindCounts(events), { system: 6, human: 2, tool_call: 9, tool_output: 9, assistant: 2 })
  assert.deepEqual(
    events.filter((event) => event.kind === 'human').map((event) => event.text),
    ['Review PR #36', '/login'],
  )
  assert.ok(
    events.some((event) => event.kind === 'system' && event.text === 'Login expired · Please run /login'),
  )
  assert.ok(events.some((event) => event.kind === 'system' && event.text === 'Login successful'))
  const encrypted = lines
    .flatMap((line) => line.outcomes)
    .reduce((n, o) => n + (o.encryptedReasoning ?? 0), 0)
  assert.equal(encrypted, 8)
})

test('a compaction summary is a system event, and so is the boundary before it', () => {
  const { events } = readTranscriptFile(claudeFile('entireio__cli__a6_e4c2a0fbd1_0_full.jsonl'), claudeReader)
  const summary = events.filter((event) => event.text.startsWith('This session is being continued'))
  assert.equal(summary.length, 1)
  assert.equal(summary[0]?.kind, 'system')
  assert.ok(
    events.some((event) => event.kind === 'system' && event.text.startsWith('Conversation compacted (auto')),
  )
  assert.deepEqual(kindCounts(events), {
    human: 3,
    system: 3,
    thinking: 12,
    assistant: 9,
    tool_call: 10,
    tool_output: 10,
  })
})

test('assistant text carries its message id as joinKey; tool calls and thinking do not', () => {
  const path = claudeFile('entireio__cli__4c_70d9b5734c_0_full.jsonl')
  const records = rawRecords(path)
  for (const line of readTranscriptFile(path, claudeReader).lines) {
    const message = records.get(line.lineNo)?.message
    const id = typeof message === 'object' && message !== null && 'id' in message ? message.id : undefined
    for (const event of line.events) {
      if (event.kind === 'assistant') assert.equal(event.joinKey, id)
      else assert.equal(event.joinKey, null)
    }
  }
})

test('a PreToolUse denial (2.1.332, print mode) is a searchable tool output; the prompt is one human event', () => {
  const path = claudeFile('agentlab__claude-code-2.1.332__print__hooks-deny.jsonl')
  const { events, lines } = readTranscriptFile(path, claudeReader)
  const denial = events.filter((event) => event.text.includes('PreToolUse:Write hook error'))
  assert.equal(denial.length, 1)
  assert.equal(denial[0]?.kind, 'tool_output')
  assert.equal(denial[0]?.toolName, 'Write')
  assert.equal(denial[0]?.callId, 'toolu_mx1jmx4g0000fake')
  const humans = events.filter((event) => event.kind === 'human')
  assert.deepEqual(
    humans.map((event) => event.text),
    ['Create notes.txt, then list files.'],
  )
  assert.ok(
    events.some(
      (event) => event.kind === 'system' && event.text.includes('AGENTLAB-SESSIONSTART-MARKER-7f3a'),
    ),
  )
  const records = rawRecords(path)
  const blobs = lines.filter((line) => records.get(line.lineNo)?.type === 'api-request-blob')
  assert.equal(blobs.length, 2)
  for (const line of blobs)
    assert.deepEqual([line.outcome, line.events.length], [{ class: 'skipped', reason: 'metadata' }, 0])
  assert.deepEqual(kindCounts(events), { human: 1, system: 1, tool_call: 2, tool_output: 2, assistant: 1 })
})

test('the same session in the TUI (2.1.332) yields the same prompt once, typed', () => {
  const { events } = readTranscriptFile(
    claudeFile('agentlab__claude-code-2.1.332__tui__hooks-deny.jsonl'),
    claudeReader,
  )
  const humans = events.filter((event) => event.kind === 'human')
  assert.deepEqual(
    humans.map((event) => [event.text, event.cliVersion]),
    [['Create notes.txt, then list files.', '2.1.332']],
  )
  assert.ok(
    events.some(
      (event) => event.kind === 'tool_output' && event.text.includes('PreToolUse:Write hook error'),
    ),
  )
})

test('prompts a parent agent wrote for its Task subagents (sidechain) are system, not human', () => {
  const { events } = readTranscriptFile(
    claudeFile('d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'),
    claudeReader,
  )
  assert.deepEqual(
    events.filter((event) => event.kind === 'human').map((event) => event.text),
    ['/orchestrator create TODO app by Next.js', 'Thanks! Please update CLAUDE.md for current changes'],
  )
  const subagentPrompt = events.find((event) =>
    event.text.startsWith('Create React components for the TODO app'),
  )
  assert.equal(subagentPrompt?.kind, 'system')
  assert.ok(events.some((event) => event.kind === 'tool_call' && event.toolName === 'Task'))
})

test('slash commands become "/name args", in every tag order the CLI has used', () => {
  const oldest = readTranscriptFile(
    claudeFile('d-kimuson__claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'),
    claudeReader,
  )
  assert.equal(oldest.events[0]?.text, '/init')
  assert.equal(oldest.events[0]?.kind, 'human')
  const plugin = readTranscriptFile(claudeFile('entireio__cli__a7_f087274d3b_0_full.jsonl'), claudeReader)
  const plan = plugin.events.find((event) => event.text.startsWith('/superpowers:write-plan '))
  assert.equal(plan?.kind, 'human')
  assert.ok(plan?.text.startsWith("/superpowers:write-plan let's write a short plan for this"))
  const goal = readTranscriptFile(claudeFile('entireio__git-sync__f2_7edbb5033d_0_full.jsonl'), claudeReader)
  assert.ok(
    goal.events.some((event) => event.kind === 'human' && event.text.startsWith('/goal simplify this repo')),
  )
})

test('a ! shell command is human, its output is tool output of Bash', () => {
  const { events } = readTranscriptFile(claudeFile('entireio__cli__a7_f087274d3b_0_full.jsonl'), claudeReader)
  const index = events.findIndex((event) => event.text === '! git branch -v')
  assert.equal(events[index]?.kind, 'human')
  assert.equal(events[index + 1]?.kind, 'tool_output')
  assert.equal(events[index + 1]?.toolName, 'Bash')
  assert.ok(events[index + 1]?.text.startsWith('* main 706e2e3'))
})

test('background task notices queued for the model are not the human typing', () => {
  const { events } = readTranscriptFile(
    claudeFile('entireio__git-sync__f2_7edbb5033d_0_full.jsonl'),
    claudeReader,
  )
  assert.deepEqual(
    events.filter((event) => event.kind === 'human').map((event) => event.text.slice(0, 20)),
    ['/model', '/goal simplify this '],
  )
  assert.ok(events.some((event) => event.kind === 'system' && event.text.startsWith('Set model to Fable 5')))
})

test("accepting a plan (2.1.42) is the human's turn: the prompt the CLI writes for it is human, and findable", () => {
  const { lines } = readTranscriptFile(claudeFile('entireio__cli__4c_70d9b5734c_0_full.jsonl'), claudeReader)
  const plan = lines.find((line) => line.lineNo === 5)?.events ?? []
  assert.deepEqual(
    plan.map((event) => event.kind),
    ['human'],
  )
  assert.match(plan[0]?.text ?? '', /^Implement the following plan:\n\n# Fix Gemini Transcript Parsing/)
})
