import { syncGeminiJournal } from '../../agents/gemini/services/gemini-journal.ts'
import { syncOpencodeJournal } from '../../agents/opencode/services/opencode-journal.ts'
import { discoverTranscripts, type TranscriptLocation } from '../../agents/transcript-locations.ts'
import { readerFor } from '../../agents/transcript-readers.ts'
import { transcriptRoots } from '../../agents/vendors.ts'
import { geminiJournalDir, opencodeJournalDir } from '../../config/data-paths.ts'
import { openRepository } from '../../git/repository.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { Logger } from '../../shared/logger.ts'
import { Capture, type CaptureProgress, type CatchUpSummary } from './capture.ts'
import { ProjectScope } from './capture-scope.ts'

/** Capture for one project: its worktrees decide scope, its human is the author, `since` the window. */
export function projectCapture(project: ProjectContext, since: number, log: Logger): Capture {
  return new Capture({
    db: project.db,
    clock: project.clock,
    log,
    scope: new ProjectScope({
      worktrees: project.repo.worktrees,
      since,
      listWorktrees: () => openRepository(project.repo.root).worktrees,
      clock: project.clock,
    }),
    author: project.human,
    readerFor,
    workerMinBytes: workerFromBytes,
  })
}

/** Below this, starting a reading thread costs more than it saves. */
export const workerFromBytes = 16 * 1024 * 1024

export interface BackfillResult extends CatchUpSummary {
  /** Transcript bytes read (new bytes only: files already captured are read from their offset). */
  readonly bytes: number
  readonly durationMs: number
}

/**
 * `sangam index` (and `doctor`, which brings the replica up to date before it reports): every
 * transcript under the roots, read up to its end. A final line without a newline is taken, since a
 * one-shot run cannot wait for a writer; if its writer was in fact mid-line, the next run sees the
 * line continue and reads the file again.
 */
export async function backfill(
  project: ProjectContext,
  options: { since: number; log: Logger; onProgress?: ((progress: CaptureProgress) => void) | undefined },
): Promise<BackfillResult> {
  const startedAt = project.clock.now()
  // opencode's sessions are in its database or JSON storage, Gemini CLI's before 0.39 in whole
  // documents: brought into their journals first (opencode-journal.ts, gemini-journal.ts).
  syncOpencodeJournal({
    dataDir: project.env.opencodeDataDir,
    journalDir: opencodeJournalDir(project.env.sangamHome),
    now: startedAt,
  })
  syncGeminiJournal({
    geminiDir: project.env.geminiDir,
    journalDir: geminiJournalDir(project.env.sangamHome),
    projectRoots: project.repo.worktrees,
    now: startedAt,
  })
  const locations: TranscriptLocation[] = discoverTranscripts(transcriptRoots(project.env))
  let bytes = 0
  const summary = await projectCapture(project, options.since, options.log).catchUp(locations, {
    mode: 'backfill',
    onProgress: (progress) => {
      bytes = progress.bytesDone
      options.onProgress?.(progress)
    },
  })
  return { ...summary, bytes, durationMs: project.clock.now() - startedAt }
}
