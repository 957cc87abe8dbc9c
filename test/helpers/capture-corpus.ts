import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { discoverTranscripts, type TranscriptLocation } from '../../src/agents/transcript-locations.ts'
import { readerFor } from '../../src/agents/transcript-readers.ts'
import { transcriptRoots } from '../../src/agents/vendors.ts'
import { corpusFiles, readTranscriptFile } from './corpus.ts'

/** Every transcript of the shared corpus (real and generated; not the hook payload files). */
export function allCorpusTranscripts(): { path: string; vendor: 'claude' | 'codex' }[] {
  return (['claude', 'codex'] as const).flatMap((vendor) =>
    corpusFiles(vendor).map((path) => ({ path, vendor })),
  )
}

const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/**
 * Copies the corpus into a HOME's `.claude/projects` and `.codex/sessions` until `targetBytes` are
 * written. In every copy each UUID (session ids, message ids) is rewritten consistently, and the
 * file's first cwd becomes `cwd`, so each copy is a distinct session of the project. Returns the
 * bytes written and the paths.
 */
export function replicateCorpus(options: { home: string; cwd: string; targetBytes: number }): {
  bytes: number
  files: string[]
} {
  const prepared = allCorpusTranscripts().map((source) => {
    const reader = readerFor(source.vendor)
    return {
      ...source,
      text: recent(readFileSync(source.path, 'utf8')),
      firstCwd: reader.facts(readTranscriptFile(source.path, reader).state).firstCwd,
    }
  })
  const files: string[] = []
  let bytes = 0
  for (let copy = 0; bytes < options.targetBytes; copy++) {
    for (const source of prepared) {
      const text = rewrite(source.text, copy, source.firstCwd, options.cwd)
      const path =
        source.vendor === 'claude'
          ? join(options.home, '.claude', 'projects', `-copy-${copy}`, `${copy}-${basename(source.path)}`)
          : join(
              options.home,
              '.codex',
              'sessions',
              '2026',
              '11',
              '29',
              `rollout-2026-11-29T00-00-00-${copy}-${basename(source.path)}`,
            )
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, text)
      files.push(path)
      bytes += Buffer.byteLength(text)
      if (bytes >= options.targetBytes) break
    }
  }
  return { bytes, files }
}

const recordTime = /"timestamp":"([^"]{10,40})"/g

/**
 * The transcript with its record times moved together so the newest is an hour before now: capture's
 * window goes by the records' own time, and copies of the corpus stand for today's sessions.
 */
function recent(text: string): string {
  let newest = Number.NEGATIVE_INFINITY
  for (const found of text.matchAll(recordTime)) {
    const at = Date.parse(found[1] ?? '')
    if (!Number.isNaN(at)) newest = Math.max(newest, at)
  }
  if (!Number.isFinite(newest)) return text
  const shift = Date.now() - 60 * 60 * 1000 - newest
  return text.replace(recordTime, (whole, at: string) => {
    const ms = Date.parse(at)
    return Number.isNaN(ms) ? whole : `"timestamp":"${new Date(ms + shift).toISOString()}"`
  })
}

function rewrite(text: string, copy: number, firstCwd: string | null, cwd: string): string {
  const ids = text.replace(uuidPattern, (id) => {
    const hex = createHash('sha1').update(`${copy}:${id}`).digest('hex')
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
  })
  return firstCwd ? ids.split(firstCwd).join(cwd) : ids
}

/** The transcripts a catch-up finds below `home`, the vendors' folders laid out as under a user's home. */
export function transcriptsUnder(home: string): TranscriptLocation[] {
  return discoverTranscripts(
    transcriptRoots({
      claudeConfigDir: join(home, '.claude'),
      codexHome: join(home, '.codex'),
      geminiDir: join(home, '.gemini'),
      sangamHome: join(home, 'sangam'),
    }),
  )
}
