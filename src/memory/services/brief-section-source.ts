import type { Actor } from '../../identity/protocol/actor.ts'
import type { Db } from '../../store/database.ts'
import type { BriefSection } from '../core/brief-assembly.ts'
import type { BriefCursor } from '../store/brief-cursor-table.ts'

/** Where the reader's checkout stands, read once per brief. */
export interface GitState {
  readonly branch: string | null
  readonly head: string | null
  /** The branch work lands on (main, master, …), and its commit. */
  readonly mainBranch: string | null
  readonly mainHead: string | null
}

/** What a section source may look at. */
export interface BriefContext {
  readonly db: Db
  /** The reader's worktree. */
  readonly cwd: string
  readonly now: number
  readonly reader: Actor
  /** Where the reader's previous brief left off; null for a first brief. */
  readonly cursor: BriefCursor | null
  readonly git: GitState
}

/** A part of the brief. Sections are independent; the assembler fits them into the budget. */
export type BriefSectionSource = (context: BriefContext) => readonly BriefSection[]
