import { laneBrief } from '../../lanes/services/lane-brief.ts'
import { leaseBrief } from '../../leases/services/brief.ts'
import type { BriefSectionSource } from '../../memory/services/brief-section-source.ts'
import { activeSessions, landedCommits, recentNotes } from '../../memory/services/brief-sections.ts'
import { captureStatus } from '../../memory/services/capture-status.ts'
import { landedFromTeam, teamPresence } from '../../sync/services/brief-sections.ts'
import { readSyncState } from '../../sync/store/state-table.ts'

/**
 * The brief's sections, in order. Every feature hands its own (memory here;
 * leases and team sync in their folders); a new part of the brief (room messages) is one more
 * source here. Composed above the features, so memory needs to know none of them.
 */
export const briefSections: readonly BriefSectionSource[] = [
  captureStatus,
  leaseBrief,
  laneBrief((db) => readSyncState(db) !== null),
  activeSessions,
  teamPresence,
  landedCommits,
  landedFromTeam,
  recentNotes,
]
