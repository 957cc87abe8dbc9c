import { leaseBrief } from '../leases/services/brief.ts'
import { briefBudget } from '../memory/core/brief-assembly.ts'
import type { BriefSectionSource } from '../memory/services/brief-section-source.ts'
import { MemoryBrief } from '../memory/services/memory-brief.ts'
import { briefSections } from '../project/services/brief-sections.ts'
import { rulesBrief } from '../room/services/rules-brief.ts'
import { type HookAnswer, promptContext, sessionContext } from './hook-answer.ts'
import { openHookStore } from './hook-store.ts'
import type { PresenceMark } from './presence-mark.ts'
import { roomContextOn } from './room-context.ts'

/**
 * SessionStart: the session's brief goes into the model's context (`additionalContext`), so an
 * agent starts knowing what is leased, who is active and what landed, without asking. The session
 * is the brief's reader, so a resumed or compacted session is told only what is new since. The
 * room's messages for the session it has not seen come first, in at most half the brief's budget;
 * the brief fits in what is left, so the whole stays within `briefBudget`.
 */
export interface SessionBriefInput extends Omit<PresenceMark, 'state'> {
  /** The session's working directory: whose branch "your branch" is. */
  readonly cwd: string
  /**
   * Given with a prompt rather than at the start: the start's hook gave up before it was out, and
   * kept it for the session's next prompt (hook-work.ts).
   */
  readonly late?: boolean | undefined
}

/** The brief moves the reader's cursor: one short write, which may wait this long for the lock. */
const busyTimeoutMs = 500
/** The room's share of the budget at session start; the brief keeps the rest. */
const roomShare = Math.floor(briefBudget / 2)

export function briefForSession(input: SessionBriefInput): HookAnswer {
  const db = openHookStore(input.project.databaseFile, busyTimeoutMs)
  let settle: ((delivered: boolean) => void) | undefined
  try {
    // One connection for both: the room's read holds the write lock until the answer is out, and
    // the brief's own cursor moves inside the same transaction.
    const room = roomContextOn(db, input, roomShare)
    settle = room?.settle
    const roomText = room?.text ?? ''
    const brief = new MemoryBrief(db, { now: () => input.now }, sessionStartSections()).brief({
      reader: input.actor,
      cwd: input.cwd,
      budget: roomText === '' ? briefBudget : briefBudget - roomText.length - 2,
    })
    const text = roomText === '' ? brief.text : `${roomText}\n\n${brief.text}`
    const answer =
      input.late === true
        ? promptContext(
            `sangam: the team brief, which your session's start could not give in time:\n\n${text}`,
          )
        : sessionContext(text)
    const pending = settle
    return {
      ...answer,
      settle: (delivered) => {
        try {
          pending?.(delivered)
        } finally {
          db.close()
        }
      },
    }
  } catch (error) {
    settle?.(false)
    db.close()
    throw error
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
