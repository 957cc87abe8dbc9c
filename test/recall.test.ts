import assert from 'node:assert/strict'
import { test } from 'node:test'
import { recallProject } from './helpers/recall-project.ts'
import { runCli, runCliJson } from './helpers/run-cli.ts'

const now = Date.now()
const source = '/home/dev/.codex/sessions/2026/11/09/rollout-2026-11-09T08-00-00-abc.jsonl'

interface SearchJson {
  terms: string[]
  since: string | null
  hits: { id: string; kind: string; vendor: string; cliVersion: string; snippet: string; sessionId: string }[]
}

test('search, thread, note and brief through the CLI', async () => {
  await using project = await recallProject()
  const ids = project.add(
    {
      kind: 'human',
      text: 'why does the pre-push gate fail open?',
      vendor: 'codex',
      cliVersion: '0.171.0',
      sessionId: 'rollout-abc',
      source,
      offset: 0,
      at: now - 120_000,
    },
    {
      kind: 'assistant',
      text: 'The pre-push gate fails open so an unreachable server never blocks a push.',
      vendor: 'codex',
      cliVersion: '0.171.0',
      sessionId: 'rollout-abc',
      source,
      offset: 400,
      at: now - 110_000,
    },
    {
      kind: 'human',
      text: 'thanks',
      vendor: 'codex',
      cliVersion: '0.171.0',
      sessionId: 'rollout-abc',
      source,
      offset: 900,
      at: now - 100_000,
    },
  )
  const cli = { cwd: project.repo.path, env: project.env }

  const found = await runCliJson<SearchJson>(['search', 'pre-push', 'gate'], cli)
  assert.deepEqual(found.terms, ['pre-push', 'gate'])
  assert.deepEqual(
    found.hits.map((hit) => hit.id),
    [ids[0], ids[1]],
  )
  assert.equal(found.hits[0]?.vendor, 'codex')
  assert.equal(found.hits[0]?.cliVersion, '0.171.0')
  const text = await runCli(['search', 'fails', 'open', '--kind', 'assistant'], cli)
  assert.equal(text.code, 0)
  assert.match(text.stdout, /^1 hit for fails open \(since /)
  assert.match(text.stdout, /assistant · .* · codex 0\.171\.0 · dev@example\.com · main · ev_fixture_000001/)
  assert.match(text.stdout, /«fails» «open»/)

  const thread = await runCli(['thread', ids[1] ?? ''], cli)
  assert.equal(thread.code, 0)
  assert.match(thread.stdout, /^session rollout-abc · codex 0\.171\.0 · dev@example\.com · main/)
  assert.match(thread.stdout, /\nhuman · .*\n {4}why does the pre-push gate fail open\?\n▶ assistant · /)
  assert.ok(!thread.stdout.includes('thanks'), 'the next human turn is not part of the thread')
  const bounded = await runCliJson<{ items: { id: string }[]; omittedAfter: number }>(
    ['thread', ids[0] ?? '', '--after', '0'],
    cli,
  )
  assert.deepEqual(bounded.items, [])
  assert.equal(bounded.omittedAfter, 1)

  const noted = await runCliJson<{ id: string; sessionId: string }>(
    ['note', 'pre-push', 'gate', 'stays', 'fail-open'],
    cli,
  )
  assert.equal(noted.sessionId, 'cli')
  const again = await runCliJson<SearchJson>(['search', 'fail-open', '--vendor', 'sangam'], cli)
  assert.deepEqual(
    again.hits.map((hit) => hit.id),
    [noted.id],
  )

  const brief = await runCliJson<{ text: string; previous: string | null }>(['brief'], cli)
  assert.equal(brief.previous, null)
  assert.ok(brief.text.length <= 2000)
  assert.match(
    brief.text,
    /codex 0\.171\.0 · dev@example\.com · main · \d+ events?, last \d+ min ago · session rollout-/,
  )
  assert.match(brief.text, /pre-push gate stays fail-open/)
  const second = await runCli(['brief'], cli)
  assert.match(second.stdout, /last brief just now/)
})

test('bad input exits with the documented codes and clear messages', async () => {
  await using project = await recallProject()
  const cli = { cwd: project.repo.path, env: project.env }
  const cases: [string[], number, RegExp][] = [
    [['search', '*', '-'], 2, /a search needs letters or digits/],
    [['search', 'x', '--kind', 'chat'], 2, /--kind takes human, assistant/],
    [['search', 'x', '--vendor', 'cursor'], 2, /--vendor takes claude, codex, gemini, opencode, sangam/],
    [['search', 'x', '--since', 'last week'], 2, /--since must be an ISO date/],
    [['search', 'x', '--limit', 'many'], 2, /--limit takes a whole number from 1 to 200/],
    [['thread', 'ev_unknown'], 4, /no event ev_unknown in this project's memory/],
    [['thread', 'ev_unknown', '--before', '0x10'], 2, /--before takes a whole number from 0 to 120/],
    [['note', '  '], 2, /a note needs text/],
  ]
  for (const [args, code, message] of cases) {
    const result = await runCli(args, cli)
    assert.equal(result.code, code, args.join(' '))
    assert.match(result.stderr, message, args.join(' '))
  }
  const json = await runCli(['thread', 'ev_unknown', '--json'], cli)
  assert.deepEqual(JSON.parse(json.stdout).error.code, 'NOT_FOUND')
})
