import { closeSync, existsSync, openSync, type Stats } from 'node:fs'
import { basename } from 'node:path'
import { ByteFingerprint } from '../../agents/byte-fingerprint.ts'
import { parseJsonValues } from '../../agents/json-values.ts'
import { JsonlFileReader } from '../../agents/jsonl-file-reader.ts'
import type { TranscriptLocation } from '../../agents/transcript-locations.ts'
import type { TranscriptReader, TranscriptVendor } from '../../agents/transcript-reader.ts'
import { vendorFor } from '../../agents/vendors.ts'
import { scrubSecrets } from '../../secrets/core/scrubber.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/database.ts'
import type { CaptureStore } from '../store/capture-store.ts'
import {
  listSourceFilesNamed,
  moveSourceFile,
  recordSourceFileScope,
  type SourceFileRow,
} from '../store/source-file-table.ts'
import type { CaptureScope } from './capture-scope.ts'

interface IdentityDeps {
  readonly db: Db
  readonly store: Pick<CaptureStore, 'mayHaveFileNamed'>
  readonly clock: Clock
  readonly scope: CaptureScope
  readonly readerFor: (vendor: TranscriptVendor) => TranscriptReader<unknown>
}

/**
 * Recognises a new path as a transcript we already know under another name: a row with the same
 * file name whose old path is gone, and whose fingerprinted bytes (the start of the file and the
 * bytes before its offset) are those of the new file. Codex moves rollouts from `sessions/` to
 * `archived_sessions/` this way; the row follows the file instead of the events being captured a
 * second time. Returns the row as it was before the move, or null.
 */
export function adoptMovedFile(deps: IdentityDeps, location: TranscriptLocation): SourceFileRow | null {
  const name = basename(location.path)
  if (!deps.store.mayHaveFileNamed(name)) return null
  const candidates = listSourceFilesNamed(deps.db, location.vendor, name).filter(
    (row) => row.path !== location.path && !existsSync(row.path),
  )
  if (candidates.length === 0) return null
  const fd = openSync(location.path, 'r')
  try {
    for (const row of candidates) {
      if (ByteFingerprint.load(fd, row.offset)?.digest() !== row.fingerprint) continue
      moveSourceFile(deps.db, row.id, location.path, deps.clock.now())
      return row
    }
    return null
  } finally {
    closeSync(fd)
  }
}

/**
 * Decides, once, whether a file belongs to the project: its reader runs over the records from the
 * start (storing nothing) until it reports a first cwd. Until one appears the file stays undecided
 * and nothing of it is stored, so an out-of-scope file's events can never reach the store, and an
 * in-scope file is read from byte 0 once decided, so it loses none.
 */
export function decideScope(
  deps: IdentityDeps,
  row: SourceFileRow,
  fd: number,
  stat: Stats,
): 'in-scope' | 'out-of-scope' | 'undecided' {
  const mtime = Math.floor(stat.mtimeMs)
  if (row.updatedAt > 0 && row.size === stat.size && row.mtime === mtime && row.size > 0) return 'undecided'
  // Some vendors' records name no directory (Gemini CLI); their project root is recorded beside.
  const cwd =
    firstCwd(deps.readerFor(row.vendor), fd) ?? vendorFor(row.vendor).projectRootBeside?.(row.path) ?? null
  const now = deps.clock.now()
  if (cwd === null) {
    recordSourceFileScope(deps.db, row.id, { firstCwd: null, inScope: null, size: stat.size, mtime, now })
    return 'undecided'
  }
  const inScope = deps.scope.contains(cwd)
  recordSourceFileScope(deps.db, row.id, {
    firstCwd: scrubSecrets(cwd),
    inScope,
    size: stat.size,
    mtime,
    now,
  })
  return inScope ? 'in-scope' : 'out-of-scope'
}

function firstCwd<State>(reader: TranscriptReader<State>, fd: number): string | null {
  const lines = new JsonlFileReader(fd, 0, ByteFingerprint.empty(), { chunkBytes: 256 * 1024 })
  let state = reader.initialState()
  for (let line = lines.next(true); line; line = lines.next(true)) {
    if (line.text === null) continue
    for (const value of parseJsonValues(line.text) ?? []) {
      state = reader.read(state, value).state
      const cwd = reader.facts(state).firstCwd
      if (cwd !== null) return cwd
    }
  }
  return null
}
