import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test } from 'node:test'
import { corpusFiles } from '../../test/helpers/corpus.ts'
import { tmpDir } from '../../test/helpers/tmp-git-repo.ts'
import { classifyTranscriptPath, discoverTranscripts } from './transcript-locations.ts'
import { detectVendor, vendorOfRecord } from './vendor-detect.ts'
import { transcriptRoots } from './vendors.ts'

function touch(path: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, '{}\n')
}

test('discovery finds Claude sessions, both subagent layouts, and Codex live and archived rollouts', async () => {
  await using home = tmpDir()
  const claude = join(home.path, '.claude')
  const codex = join(home.path, '.codex')
  const wanted = [
    'c/projects/-home-me-widget/5f1c.jsonl',
    'c/projects/-home-me-widget/agent-1a2b.jsonl',
    'c/projects/-home-me-widget/5f1c/subagents/agent-9.jsonl',
    'c/projects/-home-me-widget/5f1c/subagents/workflows/wf1/agent-7.jsonl',
    'x/sessions/2026/11/01/rollout-2026-11-01T09-00-00-0199.jsonl',
    'x/archived_sessions/rollout-2026-10-01T09-00-00-0188.jsonl',
  ]
  const ignored = [
    'c/projects/-home-me-widget/5f1c/tool-results/out.jsonl',
    'c/projects/-home-me-widget/5f1c/subagents/agent-9.meta.json',
    'c/projects/-home-me-widget/5f1c/subagents/workflows/wf1/journal.jsonl',
    'c/projects/-home-me-widget/memory/notes.md',
    'c/history.jsonl',
    'x/sessions/2026/11/01/notes.jsonl',
    'x/sessions/loose-rollout.jsonl',
    'x/history.jsonl',
  ]
  const expand = (path: string): string =>
    path.startsWith('c/') ? join(claude, path.slice(2)) : join(codex, path.slice(2))
  for (const path of [...wanted, ...ignored]) touch(expand(path))
  const roots = transcriptRoots({
    claudeConfigDir: claude,
    codexHome: codex,
    geminiDir: join(claude, '..', '.gemini'),
    sangamHome: join(claude, '..', 'sangam'),
  })

  const found = discoverTranscripts(roots)

  assert.deepEqual(
    found.map((file) => `${file.vendor}:${relative(home.path, file.path)}`),
    wanted
      .map(expand)
      .sort()
      .map((path) => `${path.includes('.claude') ? 'claude' : 'codex'}:${relative(home.path, path)}`),
  )
  for (const path of wanted) assert.notEqual(classifyTranscriptPath(roots, expand(path)), null, path)
  for (const path of ignored) assert.equal(classifyTranscriptPath(roots, expand(path)), null, path)
})

test('discovery finds Gemini CLI sessions and their subagents, nothing else of ~/.gemini/tmp', async () => {
  await using home = tmpDir()
  const gemini = join(home.path, '.gemini')
  const wanted = [
    'tmp/widget/chats/session-2026-12-04T13-11-c676da71.jsonl',
    'tmp/widget/chats/c676da71-3a52-4d6b-94cc-69b8689cfa2c/9e0b1d2c.jsonl',
  ]
  const ignored = ['tmp/widget/logs/logs.json', 'tmp/widget/chats/checkpoint.jsonl', 'tmp/widget/notes.jsonl']
  for (const path of [...wanted, ...ignored]) touch(join(gemini, path))
  const roots = transcriptRoots({
    claudeConfigDir: join(home.path, 'c'),
    codexHome: join(home.path, 'x'),
    sangamHome: join(home.path, 's'),
    geminiDir: gemini,
  })
  assert.deepEqual(
    discoverTranscripts(roots).map((file) => `${file.vendor}:${relative(gemini, file.path)}`),
    [...wanted].sort().map((path) => `gemini:${path}`),
  )
  for (const path of ignored) assert.equal(classifyTranscriptPath(roots, join(gemini, path)), null, path)
})

test('the vendor of a recorded Gemini CLI session file is detected from its content', () => {
  const fixtures = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'gemini')
  for (const name of ['session-0.61.0-denied-write.jsonl', 'session-0.61.0-write-shell-resume.jsonl'])
    assert.equal(detectVendor(join(fixtures, name)), 'gemini', name)
})

test('missing roots give an empty list, not an error', async () => {
  await using home = tmpDir()
  const roots = transcriptRoots({
    claudeConfigDir: join(home.path, 'none'),
    codexHome: join(home.path, 'x'),
    geminiDir: join(home.path, 'y'),
    sangamHome: join(home.path, 'z'),
  })
  assert.deepEqual(discoverTranscripts(roots), [])
})

test('the vendor of every corpus transcript is detected from its content', () => {
  for (const vendor of ['claude', 'codex'] as const) {
    for (const file of corpusFiles(vendor)) assert.equal(detectVendor(file), vendor, file)
  }
})

test('records that show no vendor shape decide nothing', () => {
  assert.equal(vendorOfRecord({ ts: 1, payload: {} }), null)
  assert.equal(vendorOfRecord([1, 2]), null)
  assert.equal(vendorOfRecord('text'), null)
  assert.equal(vendorOfRecord({ record_type: 'state' }), 'codex')
  assert.equal(vendorOfRecord({ type: 'summary', leafUuid: 'u' }), 'claude')
})
