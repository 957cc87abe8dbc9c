import type { TeamMain } from '../protocol/integration-lock.ts'

/**
 * Where the team's main as sangam last moved it is kept (D302): the team server, beside the
 * integration lock (`ServerIntegrationLock` implements it). A publish says where main is going
 * before it pushes and that it got there after; a catch-up compares the remote's main with it; a
 * person accepts a remote main moved outside sangam through it.
 */
export interface TeamMainDesk {
  /** The record, or null: the team has not published since the server kept one (or it keeps none). */
  read(): Promise<TeamMain | null>
  /**
   * Before the push: main moves from `from` (the remote's, as fetched) to `to`. False when the lock
   * is no longer this tenure's (taken over): nothing may be pushed. True too when the server keeps
   * no record (an older server): the publish goes on unrecorded.
   */
  publishing(input: { token: number; from: string | null; to: string }): Promise<boolean>
  /** After the push took: `commit` is the team's main, and the commit it moved from no longer is. */
  published(input: { token: number; commit: string }): Promise<void>
  /** A person accepts `commit`, a remote main moved outside sangam; false when the record changed from `expected`. */
  accept(input: { commit: string; expected: string | null; lane: string; owner: string }): Promise<boolean>
}
