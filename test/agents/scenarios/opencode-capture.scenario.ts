import assert from 'node:assert/strict'
import { test } from 'node:test'
import { accountedCaptureFile, type DoctorJson } from '../../helpers/doctor-json.ts'
import { openAgentLab } from '../agent-lab.ts'

/**
 * The real opencode 1.18.33 keeps its session in its SQLite database; `sangam index` copies it
 * into the journal and captures it: the person's words are searchable, attributed to opencode and
 * its version, and doctor accounts for every journal line. A resumed session's second prompt
 * lands in the same journal once.
 */
test('a real opencode session is captured from its database: searchable with its human words, every line accounted', async () => {
  await using lab = await openAgentLab()
  await lab.sangamJson(['init', '--no-mcp'])
  const first = await lab.opencode('Why does the zeppelin parser drop trailing commas?', [
    { tool: 'bash', input: { command: 'echo looked', description: 'look' } },
    { text: 'Because the tokenizer stops at the bracket.' },
  ])
  assert.equal(first.code, 0, first.stderr)
  assert.ok(first.sessionId, first.stdout)
  const second = await lab.opencode('And the marmalade lexer?', [{ text: 'It keeps them.' }], first.sessionId)
  assert.equal(second.code, 0, second.stderr)

  await lab.sangamJson(['index'])
  const hits = await lab.sangamJson<{
    hits: { kind: string; vendor: string; sessionId: string; cliVersion: string | null; text: string }[]
  }>(['search', 'zeppelin parser'])
  const human = hits.hits.find((hit) => hit.kind === 'human')
  assert.ok(human, JSON.stringify(hits))
  assert.equal(human.vendor, 'opencode')
  assert.equal(human.sessionId, first.sessionId)
  assert.equal(human.cliVersion, '1.18.33')
  const resumed = await lab.sangamJson<{ hits: { kind: string; sessionId: string }[] }>([
    'search',
    'marmalade',
  ])
  assert.deepEqual(
    resumed.hits.filter((hit) => hit.kind === 'human').map((hit) => hit.sessionId),
    [first.sessionId],
    'the second prompt is the same session, captured once',
  )
  const answer = await lab.sangamJson<{ hits: { kind: string }[] }>(['search', 'tokenizer bracket'])
  assert.ok(answer.hits.some((hit) => hit.kind === 'assistant'))

  // Running it again copies and captures nothing twice.
  await lab.sangamJson(['index'])
  const again = await lab.sangamJson<{ hits: unknown[] }>(['search', 'zeppelin parser'])
  assert.equal(again.hits.length, hits.hits.length)

  const file = accountedCaptureFile(await lab.sangamJson<DoctorJson>(['doctor']), 'opencode')
  assert.ok(file.events >= 6, JSON.stringify(file))
})
