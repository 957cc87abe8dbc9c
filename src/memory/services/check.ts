import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { TranscriptLocation } from '../../agents/transcript-locations.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { detectVendor } from '../../agents/vendor-detect.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Logger } from '../../shared/logger.ts'
import type { Db } from '../../store/database.ts'
import { Capture } from './capture.ts'
import { type CaptureSection, captureSection } from './capture-report.ts'
import { everyTranscript } from './capture-scope.ts'
import { workerFromBytes } from './project-capture.ts'

export interface TranscriptCheck {
  readonly capture: CaptureSection
  /** Given paths that could not be checked, and why. */
  readonly rejected: readonly { readonly path: string; readonly reason: string }[]
}

/**
 * `doctor --transcripts`: runs the given files, whatever their project or age, through the very
 * pipeline capture uses (same reader, same line accounting, same commits), against a private
 * in-memory database that is thrown away. Nothing is stored.
 */
export async function checkTranscripts(
  paths: readonly string[],
  options: {
    cwd: string
    clock: Clock
    log: Logger
    author: string
    /** Opens the empty in-memory project database the check captures into (closed here). */
    openScratch: () => Db
  },
): Promise<TranscriptCheck> {
  const rejected: { path: string; reason: string }[] = []
  const locations: TranscriptLocation[] = []
  for (const given of paths) {
    const path = resolve(options.cwd, given)
    const problem = unreadable(path)
    const vendor = problem === null ? detectVendor(path) : null
    if (problem !== null) rejected.push({ path, reason: problem })
    else if (vendor === null)
      rejected.push({
        path,
        reason: 'not recognised as a Claude Code, Codex, Gemini CLI or opencode (journal) transcript',
      })
    else if (!locations.some((location) => location.path === path)) locations.push({ path, vendor })
  }
  const db = options.openScratch()
  try {
    const capture = new Capture({
      db,
      clock: options.clock,
      log: options.log,
      scope: everyTranscript,
      author: options.author,
      readerFor,
      workerMinBytes: workerFromBytes,
    })
    await capture.catchUp(locations, { mode: 'backfill' })
    const given = new Set(locations.map((location) => location.path))
    return { capture: captureSection(db, (row) => given.has(row.path)), rejected }
  } finally {
    db.close()
  }
}

function unreadable(path: string): string | null {
  if (!existsSync(path)) return 'no such file'
  return statSync(path).isFile() ? null : 'not a file'
}
