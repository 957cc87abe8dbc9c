import assert from 'node:assert/strict'
import { test } from 'node:test'
import { accountedCaptureFile, type DoctorJson } from '../../helpers/doctor-json.ts'
import { openAgentLab } from '../agent-lab.ts'

/**
 * A real Gemini CLI 0.61.0 session, hooks installed: the brief reaches the first model request
 * (SessionStart's context, which Gemini CLI puts before the first prompt), and the session file is
 * captured, every line accounted for by `doctor`, the human's words searchable under the vendor.
 */
test('the brief, with the leases, reaches the first model request of a real Gemini CLI session', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['install-hooks'])
  await lab.sangamJson(['claim', 'src/a.ts', '-r', 'rewriting the parser'], {
    SANGAM_USER: 'bob@example.com',
  })
  const run = await lab.gemini('What is going on in this project?', [
    { text: 'Bob is rewriting the parser.' },
  ])
  assert.equal(run.code, 0, run.stderr)
  const first = JSON.stringify(lab.geminiApi.requests.find((request) => request.kind === 'main')?.body)
  assert.match(first, /<hook_context>sangam brief for dev@example\.com's gemini session/)
  assert.match(
    first,
    /src\/a\.ts: bob@example\.com until .{0,60}rewriting the parser/,
    'the lease is in the brief',
  )
})

test("a real Gemini CLI session, resumed, is captured line for line and searchable with its human's words", async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['init', '--no-mcp'])
  lab.geminiApi.scriptTurns([
    [
      { tool: 'run_shell_command', args: { command: 'echo kingfisher' } },
      { text: 'The shell said kingfisher.' },
    ],
    [{ text: 'Still kingfisher.' }],
  ])
  const first = await lab.gemini('Please echo the word kingfisher in the shell', undefined)
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId !== null && first.transcript !== null, first.stderr)
  const second = await lab.gemini('And what did it print, heron?', undefined, first.sessionId)
  assert.equal(second.code, 0, second.stderr)

  await lab.sangamJson(['index'])
  const search = await lab.sangamJson<{ hits: { kind: string; vendor: string; sessionId: string }[] }>([
    'search',
    'heron',
  ])
  assert.deepEqual(
    search.hits.map((hit) => [hit.kind, hit.vendor, hit.sessionId]),
    [['human', 'gemini', first.sessionId]],
  )
  const file = accountedCaptureFile(await lab.sangamJson<DoctorJson>(['doctor']), 'gemini')
  // Two prompts, a call and its output, two answers: each once, though Gemini CLI repeats messages.
  assert.equal(file.events, 6, JSON.stringify(file))
})
