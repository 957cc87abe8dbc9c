import type { Db } from '../../store/db.ts'
import { type AuthorKind, authorKinds } from '../protocol/author-kind.ts'
import type { RoomMessage } from '../protocol/message.ts'

// room_message : every message of the room this replica knows, posted here or pulled.
//   One order everywhere (`read`): the messages the server ordered by gseq, then those not yet
//   ordered (posted here, waiting for the push) by local seq. A pulled record of an id already here
//   (our own post echoed back) sets its gseq and nothing else.
export const createMessageTable = /*sql*/ `
  CREATE TABLE room_message (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,  -- local order of arrival
    id             TEXT NOT NULL UNIQUE,
    gseq           INTEGER UNIQUE,                     -- the server's order; NULL until known
    kind           TEXT NOT NULL,
    topic          TEXT,
    text           TEXT NOT NULL,
    sender         TEXT NOT NULL,
    human          TEXT NOT NULL,
    session_vendor TEXT,
    session_id     TEXT,
    recipients     TEXT NOT NULL,                      -- JSON array of tokens
    thread_id      TEXT,
    at             INTEGER NOT NULL,                   -- ms epoch (poster's clock)
    worktree       TEXT,
    branch         TEXT,
    head           TEXT,
    handoff        TEXT                                -- JSON, or NULL
  );
  CREATE INDEX room_message_order ON room_message ((gseq IS NULL), gseq, seq);
  CREATE INDEX room_message_thread ON room_message (thread_id, seq);`

// author (migration 20): who wrote it, as its channel could tell (human | agent | sangam |
//   unknown); NULL for the rows stored before, read as unknown.
export const addMessageAuthor = /*sql*/ `
  ALTER TABLE room_message ADD COLUMN author TEXT;`

interface MessageRow {
  seq: number
  id: string
  gseq: number | null
  kind: string
  topic: string | null
  text: string
  sender: string
  human: string
  session_vendor: string | null
  session_id: string | null
  author: string | null
  recipients: string
  thread_id: string | null
  at: number
  worktree: string | null
  branch: string | null
  head: string | null
  handoff: string | null
}

/** A stored message with its place in the room's order. */
export interface StoredMessage extends RoomMessage {
  readonly seq: number
  readonly gseq: number | null
}

const columns =
  'seq, id, gseq, kind, topic, text, sender, human, session_vendor, session_id, author, recipients, thread_id, at, worktree, branch, head, handoff'
const order = '(gseq IS NULL), gseq, seq'

function fromRow(row: MessageRow): StoredMessage {
  return {
    seq: row.seq,
    gseq: row.gseq,
    id: row.id,
    kind: row.kind as RoomMessage['kind'],
    topic: row.topic,
    text: row.text,
    sender: row.sender,
    human: row.human,
    session:
      row.session_vendor !== null && row.session_id !== null
        ? { vendor: row.session_vendor, sessionId: row.session_id }
        : null,
    author: isAuthorKind(row.author) ? row.author : 'unknown',
    recipients: JSON.parse(row.recipients) as string[],
    threadId: row.thread_id,
    at: row.at,
    worktree: row.worktree,
    branch: row.branch,
    head: row.head,
    handoff: row.handoff === null ? null : (JSON.parse(row.handoff) as RoomMessage['handoff']),
  }
}

/**
 * Stores a message unless its id is here; with a `gseq` (a pulled record) an existing row of that
 * id takes the gseq. True when the message is new to this replica.
 */
export function insertMessage(db: Db, message: RoomMessage, gseq: number | null): boolean {
  const inserted = db
    .prepare(
      /*sql*/ `INSERT INTO room_message (id, gseq, kind, topic, text, sender, human, session_vendor, session_id,
         author, recipients, thread_id, at, worktree, branch, head, handoff)
       VALUES (@id, @gseq, @kind, @topic, @text, @sender, @human, @sessionVendor, @sessionId,
         @author, @recipients, @threadId, @at, @worktree, @branch, @head, @handoff)
       ON CONFLICT (id) DO NOTHING`,
    )
    .run({
      id: message.id,
      gseq,
      kind: message.kind,
      topic: message.topic,
      text: message.text,
      sender: message.sender,
      human: message.human,
      sessionVendor: message.session?.vendor ?? null,
      sessionId: message.session?.sessionId ?? null,
      author: message.author,
      recipients: JSON.stringify(message.recipients),
      threadId: message.threadId,
      at: message.at,
      worktree: message.worktree,
      branch: message.branch,
      head: message.head,
      handoff: message.handoff === null ? null : JSON.stringify(message.handoff),
    })
  if (inserted.changes > 0) return true
  if (gseq !== null) {
    db.prepare('UPDATE room_message SET gseq = ? WHERE id = ? AND gseq IS NULL').run(gseq, message.id)
  }
  return false
}

/** The message of that id, or null. */
export function messageById(db: Db, id: string): StoredMessage | null {
  const row = db.prepare(`SELECT ${columns} FROM room_message WHERE id = ?`).get(id) as MessageRow | undefined
  return row === undefined ? null : fromRow(row)
}

/** The last `limit` messages of the room, in the room's order. */
export function latestMessages(db: Db, limit: number): StoredMessage[] {
  const rows = db
    .prepare(
      `SELECT * FROM (SELECT ${columns} FROM room_message ORDER BY (gseq IS NULL) DESC, gseq DESC, seq DESC LIMIT ?) ORDER BY ${order}`,
    )
    .all(limit) as MessageRow[]
  return rows.map(fromRow)
}

/** Up to `limit` messages after `after` in the room's order. */
export function messagesAfter(db: Db, after: StoredMessage, limit: number): StoredMessage[] {
  const rows = (
    after.gseq === null
      ? db
          .prepare(
            `SELECT ${columns} FROM room_message WHERE gseq IS NULL AND seq > ? ORDER BY ${order} LIMIT ?`,
          )
          .all(after.seq, limit)
      : db
          .prepare(
            `SELECT ${columns} FROM room_message WHERE gseq IS NULL OR gseq > ? ORDER BY ${order} LIMIT ?`,
          )
          .all(after.gseq, limit)
  ) as MessageRow[]
  return rows.map(fromRow)
}

/** The messages of one thread, in the room's order. */
export function threadMessages(db: Db, threadId: string, limit: number): StoredMessage[] {
  const rows = db
    .prepare(`SELECT ${columns} FROM room_message WHERE thread_id = ? ORDER BY ${order} LIMIT ?`)
    .all(threadId, limit) as MessageRow[]
  return rows.map(fromRow)
}

/**
 * The newest message this sender posted at or after `since`, for spotting a retried post (the
 * same text again from a process that died before it could tell whether the first one landed).
 */
export function latestMessageOfSender(db: Db, sender: string, since: number): StoredMessage | null {
  const row = db
    .prepare(`SELECT ${columns} FROM room_message WHERE sender = ? AND at >= ? ORDER BY seq DESC LIMIT 1`)
    .get(sender, since) as MessageRow | undefined
  return row === undefined ? null : fromRow(row)
}

/** How many messages this replica holds. */
export function messageCount(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM room_message').get() as { n: number }).n
}

/** What one agent session is to be shown: messages after its cursor, addressed to it, not its own. */
export interface AddressedQuery {
  /** Only messages that reached this replica after this local seq. */
  readonly afterSeq: number
  /** Only messages posted at or after this (ms epoch); 0 for no bound. */
  readonly since: number
  readonly vendor: string
  readonly sessionId: string
  /** The recipient tokens that address the session (`@handle`, `#worktree`, …). */
  readonly tokens: readonly string[]
  readonly limit: number
}

// Addressed: to the whole room (no recipients, no thread), to one of the session's tokens, or
// posted into a thread one of those tokens takes part in (D272: a thread's post is for its
// participants and its mentions, not the whole room); never a post the session made itself. Both
// statements share it, so the count and the rows always agree.
const addressedWhere = /*sql*/ `seq > @afterSeq AND at >= @since
  AND NOT (session_vendor IS @vendor AND session_id IS @sessionId)
  AND ((recipients = '[]' AND thread_id IS NULL) OR EXISTS (
    SELECT 1 FROM json_each(room_message.recipients) AS r
    WHERE r.value IN (SELECT value FROM json_each(@tokens)))
  OR (thread_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM room_thread AS t, json_each(t.participants) AS p
    WHERE t.id = room_message.thread_id AND p.value IN (SELECT value FROM json_each(@tokens)))))`

/**
 * The first `limit` messages for a session in the room's order, how many there are in all, and
 * the newest local seq (where its cursor goes once they are shown).
 */
export function addressedMessages(
  db: Db,
  query: AddressedQuery,
): { messages: StoredMessage[]; total: number; lastSeq: number } {
  const params = {
    afterSeq: query.afterSeq,
    since: query.since,
    vendor: query.vendor,
    sessionId: query.sessionId,
    tokens: JSON.stringify(query.tokens),
  }
  const rows = db
    .prepare(`SELECT ${columns} FROM room_message WHERE ${addressedWhere} ORDER BY ${order} LIMIT @limit`)
    .all({ ...params, limit: query.limit }) as MessageRow[]
  const total = (
    db.prepare(`SELECT count(*) AS n FROM room_message WHERE ${addressedWhere}`).get(params) as { n: number }
  ).n
  return { messages: rows.map(fromRow), total, lastSeq: lastMessageSeq(db) }
}

/**
 * Up to `limit` messages that reached this replica after local seq `afterSeq`, in arrival order:
 * what a live reader (`chat`) has not printed yet, posted here or pulled from the team.
 */
export function messagesArrivedAfter(db: Db, afterSeq: number, limit: number): StoredMessage[] {
  const rows = db
    .prepare(`SELECT ${columns} FROM room_message WHERE seq > ? ORDER BY seq LIMIT ?`)
    .all(afterSeq, limit) as MessageRow[]
  return rows.map(fromRow)
}

/** The newest local seq (0 for an empty room): where a live reader starts following. */
export function lastMessageSeq(db: Db): number {
  return (db.prepare('SELECT coalesce(max(seq), 0) AS s FROM room_message').get() as { s: number }).s
}

function isAuthorKind(value: string | null): value is AuthorKind {
  return value !== null && (authorKinds as readonly string[]).includes(value)
}

/**
 * A post into a thread: its sender, whether a session posted it (an agent's, or a human's `chat`,
 * whose sender is its handle) rather than a person at the CLI, and when (the poster's clock).
 */
export interface ThreadPostRow {
  readonly threadId: string
  readonly sender: string
  readonly inSession: boolean
  readonly at: number
}

/**
 * The latest post of each sender into each thread at or after `since`, newest first; the posts of
 * `ownSender` without a session (sangam's own, the conflict threads' `ready`) are left out.
 */
export function threadPostsSince(db: Db, since: number, ownSender: string): ThreadPostRow[] {
  const rows = db
    .prepare(
      /*sql*/ `SELECT thread_id, sender, session_vendor IS NOT NULL AS in_session, max(at) AS at
       FROM room_message
       WHERE thread_id IS NOT NULL AND at >= ? AND (session_vendor IS NOT NULL OR sender <> ?)
       GROUP BY thread_id, sender, in_session
       ORDER BY at DESC`,
    )
    .all(since, ownSender) as { thread_id: string; sender: string; in_session: number; at: number }[]
  return rows.map((row) => ({
    threadId: row.thread_id,
    sender: row.sender,
    inSession: row.in_session === 1,
    at: row.at,
  }))
}
