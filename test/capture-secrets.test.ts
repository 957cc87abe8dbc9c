import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'
import { scrubSecrets } from '../src/secrets/core/scrubber.ts'
import { captureWorld } from './helpers/capture-transcripts.ts'
import { filesUnder, leaksUnder } from './helpers/leak-scan.ts'
import { runCliJson } from './helpers/run-cli.ts'
import { pem, samples } from './helpers/secret-samples.ts'

/**
 * Every secret sample the scrubber recognises on its own, so that what this test checks is that
 * every byte sangam writes from a transcript went through the scrubber, not how good its rules are:
 * each is put where the scrubber finds it (after a space or a `/`).
 */
const secrets = Object.values(samples)
  .flat()
  .filter((secret) => !scrubSecrets(`x ${secret} x`).includes(secret))
const key = pem('OPENSSH PRIVATE KEY', 6)
/** The lines of the key's body: the key is stored JSON-escaped in places, so look for each line. */
const keyLines = key.split('\n').slice(1, -1)

/** Claude Code records carrying a secret in every field sangam reads. */
function claudeTranscript(cwd: string): string {
  const [a, b, c, d, e, f, g, h] = secrets
  const envelope = (at: string) => ({
    cwd: `${cwd}/${a}`,
    sessionId: `sess ${b}`,
    version: `2.1.80 ${c}`,
    gitBranch: `feature/${d}`,
    timestamp: at,
  })
  const lines: unknown[] = [
    // A `-p` run opens with its enqueue, before any record said which version and cwd: the prompt
    // is held in the reader's state until its echo.
    { type: 'queue-operation', operation: 'enqueue', content: `deploy with ${e}`, sessionId: `sess ${b}` },
    {
      ...envelope('2026-11-29T10:00:00.000Z'),
      type: 'user',
      message: { role: 'user', content: `my token is ${f}` },
      uuid: '00000000-0000-4000-8000-000000000001',
    },
    // Typed while the agent is busy: captured, and remembered until its echo.
    {
      ...envelope('2026-11-29T10:00:01.000Z'),
      type: 'queue-operation',
      operation: 'enqueue',
      content: `also rotate ${g}\n${key}`,
    },
    {
      ...envelope('2026-11-29T10:00:02.000Z'),
      type: 'assistant',
      message: {
        id: `msg ${h}`,
        role: 'assistant',
        model: 'm',
        content: [{ type: 'tool_use', id: `toolu ${a}`, name: `vault ${c}`, input: { key: e } }],
      },
      uuid: '00000000-0000-4000-8000-000000000002',
    },
    { ...envelope('2026-11-29T10:00:03.000Z'), type: `odd ${d}`, [`field ${f}`]: 1 },
  ]
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('')
}

/** A Codex rollout with a secret in its thread id, cwd, branch, calls and prompts. */
function codexRollout(cwd: string): string {
  const [a, b, c, d, e, f, g] = secrets.slice(-7)
  const line = (type: string, payload: Record<string, unknown>) =>
    `${JSON.stringify({ timestamp: '2026-11-29T11:00:00.000Z', type, payload })}\n`
  return [
    line('session_meta', {
      id: `thread ${a}`,
      cwd: `${cwd}/${b}`,
      cli_version: `0.130.0 ${c}`,
      git: { branch: `fix/${d}` },
    }),
    line('turn_context', { turn_id: 't1', cwd: `${cwd}/${e}` }),
    line('event_msg', { type: 'user_message', message: `use ${f} for the deploy`, images: [] }),
    line('response_item', {
      type: 'function_call',
      name: `tool ${g}`,
      arguments: JSON.stringify({ cmd: `curl -H 'x: ${a}'` }),
      call_id: `call ${b}`,
    }),
    // A fork: the parent's thread id and its history are read too.
    line('session_meta', { id: `parent ${c}`, cwd: `${cwd}/${d}`, git: { branch: `p/${e}` } }),
    line('turn_context', { turn_id: 't0', cwd: `${cwd}/${f}` }),
    line('event_msg', { type: 'user_message', message: `parent said ${g}`, images: [] }),
    line(`mystery ${a}`, { [`x ${b}`]: b }),
  ].join('')
}

test('no secret from a transcript reaches any file under the data dir: database, WAL, or anything else', async () => {
  assert.ok(secrets.length >= 15, `${secrets.length} samples the scrubber recognises`)
  await using w = await captureWorld()
  w.claude('sess.jsonl', claudeTranscript(w.repo.path))
  w.codex('rollout-2026-11-29T11-00-00-secret.jsonl', codexRollout(w.repo.path))
  await runCliJson(['index'], { cwd: w.repo.path, env: w.env })

  const events = w.events()
  assert.ok(events.length >= 6, `${events.length} events captured`)
  assert.ok(events.some((event) => event.text.includes('[REDACTED')))
  const dataDir = join(w.home.path, '.sangam')
  assert.ok([...filesUnder(dataDir)].some((path) => path.endsWith('sangam.db')))
  assert.deepEqual(leaksUnder([dataDir], [...secrets, ...keyLines]), [])
})
