/**
 * Backfill throughput: `sangam index` (the compiled CLI, a real process) over a corpus of at least
 * 200 MB made by replicating the shared corpus (every copy rewritten into a distinct session of the
 * project), beside the JSON.parse-only throughput of the same bytes measured in the same run: read
 * each file, split it into lines, JSON.parse every non-blank line, nothing else. The ratio of the
 * two is the figure to watch (target ≥ 30 %); absolute numbers move with the machine's load.
 *
 *   npm run build && node --import tsx bench/backfill.ts [megabytes]
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { replicateCorpus } from '../test/helpers/capture-corpus.ts'
import { captureWorld } from '../test/helpers/capture-transcripts.ts'
import { runCliJson } from '../test/helpers/run-cli.ts'

const megabytes = Number(process.argv[2] ?? 200)

interface IndexJson {
  readonly inserted: number
  readonly bytes: number
  readonly durationMs: number
}

/** The floor: what it costs just to read and parse the bytes. */
function parseOnly(files: readonly string[]): number {
  const startedAt = performance.now()
  let values = 0
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      try {
        JSON.parse(line)
        values++
      } catch {
        // a torn or glued line: the pipeline copes with it, the floor just skips it
      }
    }
  }
  if (values === 0) throw new Error('parsed nothing')
  return performance.now() - startedAt
}

async function main(): Promise<void> {
  await using world = await captureWorld()
  const corpus = replicateCorpus({
    home: world.home.path,
    cwd: world.repo.path,
    targetBytes: megabytes * 1024 * 1024,
  })
  const mb = corpus.bytes / (1024 * 1024)
  // Drop nothing from the page cache on purpose: both sides read warm files.
  const parseBeforeMs = parseOnly(corpus.files)

  const startedAt = performance.now()
  const out = await runCliJson<IndexJson>(['index'], {
    cwd: world.repo.path,
    env: world.env,
    timeoutMs: 3_600_000,
  })
  const indexMs = performance.now() - startedAt

  const parseAfterMs = parseOnly(corpus.files)
  const parseMs = Math.min(parseBeforeMs, parseAfterMs)
  const database = execFileSync('du', ['-sm', `${world.home.path}/.sangam`], { encoding: 'utf8' }).split(
    '\t',
  )[0]

  const lines = [
    `backfill: ${corpus.files.length} transcript files, ${mb.toFixed(1)} MB (${megabytes} MB asked)`,
    `  JSON.parse only      ${(mb / (parseMs / 1000)).toFixed(1)} MB/s (best of two runs: ${parseBeforeMs.toFixed(0)} / ${parseAfterMs.toFixed(0)} ms)`,
    `  sangam index         ${(mb / (indexMs / 1000)).toFixed(1)} MB/s, ${Math.round(out.inserted / (indexMs / 1000))} events/s (${out.inserted} events in ${(indexMs / 1000).toFixed(1)} s, process start included; ${out.durationMs} ms inside)`,
    `  ratio index / parse  ${((100 * parseMs) / indexMs).toFixed(0)} %  (target ≥ 30 %)`,
    `  replica on disk      ${database} MB`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

await main()
