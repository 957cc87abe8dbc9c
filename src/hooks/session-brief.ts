import type { Actor } from '../protocol/lease.ts'
import { briefSections } from '../services/brief-sections.ts'
import { leaseBrief } from '../services/leases/brief.ts'
import type { BriefSectionSource } from '../services/memory/brief-section-source.ts'
import { MemoryBrief } from '../services/memory/memory-brief.ts'
import { rulesBrief } from '../services/room/rules-brief.ts'
import { openDatabaseFile } from '../store/database.ts'
import { type HookAnswer, sessionContext } from './hook-answer.ts'
import type { LocatedProject } from './project-locator.ts'

/**
 * SessionStart: the session's brief goes into the model's context (`additionalContext`), so an
 * agent starts knowing what is leased, who is active and what landed, without asking. The session
 * is the brief's reader, so a resumed or compacted session is told only what is new since.
 */
export interface SessionBriefInput {
  readonly project: LocatedProject
  readonly actor: Actor
  /** The session's working directory: whose branch "your branch" is. */
  readonly cwd: string
  readonly now: number
}

/** The brief moves the reader's cursor: one short write, which may wait this long for the lock. */
const busyTimeoutMs = 500

export function briefForSession(input: SessionBriefInput): HookAnswer {
  const db = openDatabaseFile(input.project.databaseFile, { busyTimeoutMs })
  try {
    const brief = new MemoryBrief(db, { now: () => input.now }, sessionStartSections()).brief({
      reader: input.actor,
      cwd: input.cwd,
    })
    return sessionContext(brief.text)
  } finally {
    db.close()
  }
}

/**
 * The sections of a session's first context: the brief's, and the house rules at `warn` or
 * `refuse` right after the leases, so every agent starts knowing what will stop or warn it. The
 * assembler fits them all into the brief's budget. `sangam brief` keeps the brief as it was.
 */
function sessionStartSections(): readonly BriefSectionSource[] {
  const leasesAt = briefSections.indexOf(leaseBrief)
  const at = leasesAt === -1 ? 0 : leasesAt + 1
  return [...briefSections.slice(0, at), rulesBrief, ...briefSections.slice(at)]
}
