// delivery      : the ledger, one row per (message, session) a tag was weighed for on this machine:
//                 where it stands, the channel that carried (or is to carry) it and why. Its key is
//                 the guard "each (message, session) at most once", whoever sees the message first
//                 (the daemon, a CLI, an MCP server): rows move pending → starting → delivered only
//                 inside IMMEDIATE transactions that re-read them.
// delivery_turn : every turn sangam started (or extended, for a hand-over): vendor, session, channel,
//                 why, the messages it carried, the process and its log; the cost record. At most one
//                 `starting | running` turn per session (a unique partial index), so two processes
//                 cannot start two at once. `starting` is written before the spawn: a process killed
//                 between spawn and record leaves `starting`, which becomes `unknown`, never a retry.
// delivery_scan : how far the daemon has looked through room_message (local seq).
// delivery_pane : the tmux pane a session runs in, as its hooks saw it ($TMUX_PANE).
export const createDeliveryTables = /*sql*/ `
  CREATE TABLE delivery (
    message_id   TEXT NOT NULL,
    vendor       TEXT NOT NULL,
    session_id   TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('pending', 'starting', 'delivered', 'refused', 'failed', 'unknown')),
    channel      TEXT,
    reason       TEXT,
    sender       TEXT NOT NULL,
    sender_kind  TEXT NOT NULL CHECK (sender_kind IN ('human', 'agent', 'sangam')),
    mode         TEXT NOT NULL CHECK (mode IN ('handle', 'worktree', 'send')),  -- how it names the session
    turn_id      INTEGER,
    created_at   INTEGER NOT NULL,    -- ms epoch
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (message_id, vendor, session_id)
  );
  CREATE INDEX delivery_open ON delivery (vendor, session_id) WHERE state IN ('pending', 'starting');
  CREATE INDEX delivery_recent ON delivery (updated_at);
  CREATE TABLE delivery_turn (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    vendor       TEXT NOT NULL,
    session_id   TEXT NOT NULL,
    channel      TEXT NOT NULL,
    cause        TEXT NOT NULL CHECK (cause IN ('human', 'agent')),
    why          TEXT NOT NULL,       -- tag | send | start | hand-over
    messages     TEXT NOT NULL,       -- JSON array of message ids
    state        TEXT NOT NULL CHECK (state IN ('starting', 'running', 'ended', 'failed', 'stopped', 'unknown')),
    owner_pid    INTEGER NOT NULL,    -- the process starting it
    owner_start  TEXT,                -- that process's start stamp (pid reuse)
    pid          INTEGER,             -- the vendor CLI's process, once spawned
    pid_start    TEXT,
    worktree     TEXT,
    log_file     TEXT,
    exit_code    INTEGER,
    detail       TEXT,
    started_at   INTEGER NOT NULL,
    ended_at     INTEGER
  );
  CREATE UNIQUE INDEX delivery_turn_live ON delivery_turn (vendor, session_id) WHERE state IN ('starting', 'running');
  CREATE INDEX delivery_turn_session ON delivery_turn (vendor, session_id, started_at);
  CREATE TABLE delivery_scan (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    seen_seq  INTEGER NOT NULL
  );
  CREATE TABLE delivery_pane (
    vendor      TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    pane        TEXT NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (vendor, session_id)
  );`

// Migration 20: the ledger's `sender_kind` takes `unknown` (a post whose author nobody could tell:
// it counts against the loop budget as an agent's does), and `mode` takes `thread` (the session
// is a participant of the thread the message was posted into, and no `@handle` or `#worktree` of
// the message names it). SQLite cannot change a CHECK in place: the table is rebuilt, rows kept.
export const widenDeliveryKinds = /*sql*/ `
  CREATE TABLE delivery_next (
    message_id   TEXT NOT NULL,
    vendor       TEXT NOT NULL,
    session_id   TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('pending', 'starting', 'delivered', 'refused', 'failed', 'unknown')),
    channel      TEXT,
    reason       TEXT,
    sender       TEXT NOT NULL,
    sender_kind  TEXT NOT NULL CHECK (sender_kind IN ('human', 'agent', 'sangam', 'unknown')),
    mode         TEXT NOT NULL CHECK (mode IN ('handle', 'worktree', 'thread', 'send')),
    turn_id      INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (message_id, vendor, session_id)
  );
  INSERT INTO delivery_next (message_id, vendor, session_id, state, channel, reason, sender, sender_kind,
    mode, turn_id, created_at, updated_at)
    SELECT message_id, vendor, session_id, state, channel, reason, sender, sender_kind,
      mode, turn_id, created_at, updated_at FROM delivery;
  DROP TABLE delivery;
  ALTER TABLE delivery_next RENAME TO delivery;
  CREATE INDEX delivery_open ON delivery (vendor, session_id) WHERE state IN ('pending', 'starting');
  CREATE INDEX delivery_recent ON delivery (updated_at);`
