import { findMainBranch, readHead } from '../../git/branch.ts'
import { actorKey, describeActor } from '../../identity/core/actor-names.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Db } from '../../store/database.ts'
import { type AssembledSection, assembleBrief } from '../core/brief-assembly.ts'
import { describeAge } from '../core/brief-lines.ts'
import { readBriefCursor, writeBriefCursor } from '../store/brief-cursor-table.ts'
import type { BriefSectionSource, GitState } from './brief-section-source.ts'

export interface BriefInput {
  readonly reader: Actor
  /** The reader's worktree: whose branch "your branch" is. */
  readonly cwd: string
  /** Characters the text may take; `briefBudget` unless the caller shares it (SessionStart's room). */
  readonly budget?: number | undefined
}

export interface BriefResult {
  /** The cursor key: `human:<name>` or `<vendor>:<session id>`. */
  readonly reader: string
  /** When this reader's previous brief was made (ISO), or null for a first brief. */
  readonly previous: string | null
  /** The brief as text, at most 2,000 characters. */
  readonly text: string
  /** What the text shows, section by section. */
  readonly sections: readonly AssembledSection[]
}

/**
 * `brief`: who was active, what landed since the reader's last brief, recent notes, in at most
 * 2,000 characters. Each reader has a cursor, moved by every brief, so the next one tells only
 * what is new to them.
 */
export class MemoryBrief {
  readonly #db: Db
  readonly #clock: Clock
  readonly #sections: readonly BriefSectionSource[]

  constructor(db: Db, clock: Clock, sections: readonly BriefSectionSource[]) {
    this.#db = db
    this.#clock = clock
    this.#sections = sections
  }

  brief(input: BriefInput): BriefResult {
    const now = this.#clock.now()
    const reader = actorKey(input.reader)
    const cursor = readBriefCursor(this.#db, reader)
    const git = readGitState(input.cwd)
    const context = { db: this.#db, cwd: input.cwd, now, reader: input.reader, cursor, git }
    const header = `sangam brief for ${describeActor(input.reader)} (${
      cursor === null ? 'first brief' : `last brief ${describeAge(cursor.at, now)}`
    })`
    const brief = assembleBrief(
      header,
      this.#sections.flatMap((source) => source(context)),
      input.budget,
    )
    writeBriefCursor(this.#db, { reader, at: now, headCommit: git.head, mainCommit: git.mainHead })
    return {
      reader,
      previous: cursor === null ? null : new Date(cursor.at).toISOString(),
      text: brief.text,
      sections: brief.sections,
    }
  }
}

function readGitState(cwd: string): GitState {
  const head = readHead(cwd)
  const main = findMainBranch(cwd)
  return {
    branch: head.branch,
    head: head.commit,
    mainBranch: main?.name ?? null,
    mainHead: main?.commit ?? null,
  }
}
