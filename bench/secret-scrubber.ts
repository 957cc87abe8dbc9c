/**
 * Secret scrubbing throughput over every string field of the real transcripts in the corpus (what
 * capture hands the scrubber), beside a baseline measured in the same run: measuring the UTF-8
 * length of the same text, one native pass over every character. Also the slow path: the same
 * fields with a secret assignment appended to each, so every field goes through both full scans.
 * Beside it, the scrubber of another commit (default `main`) over the same text in the same run,
 * as a ratio: what a change to the scrubber costs.
 *
 *   node --import tsx bench/secret-scrubber.ts [git ref to compare with]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scrubSecrets } from '../src/secrets/core/scrubber.ts'
import { percentile, transcriptFields } from './helpers/transcript-sentences.ts'

/** The scrubber as it was at `ref`: its sources (secrets/core, shared) checked out to a scratch folder. */
async function scrubberAt(ref: string): Promise<{ scrub: (text: string) => string; dir: string }> {
  const root = join(import.meta.dirname, '..')
  const dir = mkdtempSync(join(tmpdir(), 'sangam-bench-scrubber-'))
  const archive = execFileSync('git', ['-C', root, 'archive', ref, 'src/secrets/core', 'src/shared'])
  execFileSync('tar', ['-x', '-C', dir], { input: archive })
  const module = (await import(join(dir, 'src', 'secrets', 'core', 'scrubber.ts'))) as {
    scrubSecrets: (text: string) => string
  }
  return { scrub: module.scrubSecrets, dir }
}

const print = (...parts: string[]): void => {
  process.stdout.write(`${parts.join(' ')}\n`)
}

/** Milliseconds for one pass of `run` over all fields, best of `rounds` passes (after a warm-up). */
function time(fields: readonly string[], run: (text: string) => unknown, rounds = 5): number {
  for (const field of fields) run(field)
  const passes: number[] = []
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    for (const field of fields) run(field)
    passes.push(performance.now() - started)
  }
  return Math.min(...passes)
}

const fields = transcriptFields()
const chars = fields.reduce((sum, field) => sum + field.length, 0)
// Built at run time so the repository holds no string that looks like a live key.
const token = ['ghp', '_', 'x'.repeat(30), '0123456'].join('')
const withSecrets = fields.map((field) => `${field}\nexport GITHUB_TOKEN=${token}`)
const secretChars = withSecrets.reduce((sum, field) => sum + field.length, 0)

const ref = process.argv[2] ?? 'main'
const before = await scrubberAt(ref)
const baseline = time(fields, (text) => Buffer.byteLength(text, 'utf8'))
const scrubBefore = time(fields, before.scrub)
const scrub = time(fields, scrubSecrets)
const denseBefore = time(withSecrets, before.scrub)
const dense = time(withSecrets, scrubSecrets)
const changedBefore = fields.filter((field) => before.scrub(field) !== field).length
const changed = fields.filter((field) => scrubSecrets(field) !== field).length
rmSync(before.dir, { recursive: true, force: true })
const perField = fields.map((field) => {
  const started = performance.now()
  scrubSecrets(field)
  return performance.now() - started
})
perField.sort((a, b) => a - b)

const rate = (n: number, ms: number): string => `${(n / 1e6 / (ms / 1000)).toFixed(1)} Mchar/s`
print(
  `secret scrubber over ${fields.length} corpus fields, ${(chars / 1e6).toFixed(1)} M characters (best of 5)`,
)
print(
  'baseline: byteLength    ',
  `${baseline.toFixed(1)} ms`.padStart(10),
  rate(chars, baseline).padStart(16),
)
print(
  `scrubSecrets at ${ref}`.padEnd(24),
  `${scrubBefore.toFixed(1)} ms`.padStart(10),
  rate(chars, scrubBefore).padStart(16),
  `${(scrubBefore / baseline).toFixed(1)}x baseline`.padStart(16),
)
print(
  'scrubSecrets            ',
  `${scrub.toFixed(1)} ms`.padStart(10),
  rate(chars, scrub).padStart(16),
  `${(scrub / baseline).toFixed(1)}x baseline`.padStart(16),
)
print(
  `at ${ref}, + a secret`.padEnd(24),
  `${denseBefore.toFixed(1)} ms`.padStart(10),
  rate(secretChars, denseBefore).padStart(16),
  `${(denseBefore / baseline).toFixed(1)}x baseline`.padStart(16),
)
print(
  'scrubSecrets, + a secret',
  `${dense.toFixed(1)} ms`.padStart(10),
  rate(secretChars, dense).padStart(16),
  `${(dense / baseline).toFixed(1)}x baseline`.padStart(16),
)
print(
  `per field: p50 ${(percentile(perField, 50) * 1000).toFixed(1)} µs, p99 ${(percentile(perField, 99) * 1000).toFixed(1)} µs, max ${((perField.at(-1) ?? 0) * 1000).toFixed(0)} µs; ${changed} corpus fields changed (${changedBefore} at ${ref})`,
)
print(
  `this scrubber vs ${ref}: ${(scrub / scrubBefore).toFixed(2)}x the time on corpus text, ${(dense / denseBefore).toFixed(2)}x with a secret in every field`,
)
