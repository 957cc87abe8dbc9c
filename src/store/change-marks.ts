import type { Db, Statement } from './db.ts'

/**
 * What the dashboard's live feed names as changed: each topic a part of the page redraws.
 * `board` is derived from the threads, the messages and presence; `lanes` from the worktree
 * states, the overlap picture and the conflict threads of `ready`, and the managed lanes, the
 * integration lock (who holds it, not its heartbeat) and the integration log. The Board page
 * listens to `lanes` too for its lanes part.
 */
export const changeTopics = ['messages', 'threads', 'board', 'presence', 'events', 'leases', 'lanes'] as const
export type ChangeTopic = (typeof changeTopics)[number]

/** One mark per topic: a text that differs whenever what the topic covers changed. */
export type ChangeMarks = Readonly<Record<ChangeTopic, string>>

/**
 * Reads every topic's mark in one statement: counters the tables already keep (the largest rowid,
 * a count, the newest `updated_at`), so the read costs a few index lookups however large the store
 * is. Tables are read through their primary keys or small sizes; none is scanned in full except
 * the small ones (presence, threads, worktree states, overlap rows, live leases).
 */
export class ChangeMarkReader {
  readonly #dataVersion: Statement
  readonly #marks: Statement

  constructor(db: Db) {
    this.#dataVersion = db.prepare('PRAGMA data_version')
    this.#marks = db.prepare(/*sql*/ `
      SELECT
        (SELECT coalesce(max(seq), 0) FROM event) AS events,
        (SELECT coalesce(max(seq), 0) || ':' || count(gseq) FROM room_message) AS messages,
        (SELECT count(*) || ':' || coalesce(max(updated_at), 0) || ':' || coalesce(sum(change), 0) || ':'
                || coalesce(sum(length(state)), 0) FROM presence) AS presence,
        (SELECT count(*) || ':' || coalesce(max(updated_at), 0) || ':' || sum(status = 'open') FROM room_thread)
          AS threads,
        (SELECT coalesce(max(id), 0) FROM lease_log) || ':' ||
          (SELECT count(*) || ':' || coalesce(max(renewed_at), 0) || ':' || coalesce(max(token), 0) FROM lease)
          AS leases,
        (SELECT count(*) || ':' || coalesce(max(updated_at), 0) FROM worktree_state) || ':' ||
          (SELECT count(*) || ':' || coalesce(max(computed_at), 0) || ':' || coalesce(sum(conflicted), 0) FROM overlap)
          || ':' || (SELECT count(*) || ':' || coalesce(max(updated_at), 0) FROM ready_conflict)
          || ':' || (SELECT count(*) || ':' || coalesce(max(updated_at), 0) FROM lane)
          || ':' || (SELECT coalesce(lane, '') || ':' || token || ':' || coalesce(task, '') FROM integration_lock)
          || ':' || (SELECT coalesce(max(id), 0) FROM integration_event)
          AS lanes`)
  }

  /**
   * SQLite's `data_version` of this connection: it changes when another connection (any process)
   * commits, and only then, so a poll that finds it unchanged reads nothing else.
   */
  dataVersion(): number {
    return this.#dataVersion.pluck().get() as number
  }

  marks(): ChangeMarks {
    const row = this.#marks.get() as Record<Exclude<ChangeTopic, 'board'>, string | number>
    const threads = String(row.threads)
    const messages = String(row.messages)
    const presence = String(row.presence)
    return {
      events: String(row.events),
      messages,
      presence,
      threads,
      board: `${threads}|${messages}|${presence}`,
      leases: String(row.leases),
      lanes: String(row.lanes),
    }
  }
}

/** The topics whose marks differ between two reads. */
export function changedTopics(before: ChangeMarks, after: ChangeMarks): ChangeTopic[] {
  return changeTopics.filter((topic) => before[topic] !== after[topic])
}
