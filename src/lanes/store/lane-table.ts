import type { Db } from '../../store/db.ts'

// lane : one row per lane (a managed worktree on lane/<name>). `state` is idle, integrating (a
//        sync is moving it: `journal` says what it was doing, `pid` who), task (a semantic task is
//        active: `task`) or deleting. `base` is the main the lane last saw (null: unknown).
//        `agent` is claude, codex, gemini or a command line; null for a human's lane (--no-agent).
//        `pane` is the tmux pane its agent was started in, when sangam started it in tmux.
export const createLaneTable = /*sql*/ `
  CREATE TABLE lane (
    name        TEXT PRIMARY KEY,
    branch      TEXT NOT NULL,
    worktree    TEXT NOT NULL,
    owner       TEXT NOT NULL,
    agent       TEXT,
    pane        TEXT,
    state       TEXT NOT NULL CHECK (state IN ('idle', 'integrating', 'task', 'deleting')),
    base        TEXT,
    task        TEXT,
    journal     TEXT,            -- JSON IntegrationJournal while integrating
    pid         INTEGER,         -- the process integrating it
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
  );
  -- lane_task : every semantic task ever started, and how it ended.
  CREATE TABLE lane_task (
    id               TEXT PRIMARY KEY,
    lane             TEXT NOT NULL,
    file             TEXT NOT NULL,
    validation_file  TEXT NOT NULL,
    snapshot         TEXT NOT NULL,
    base             TEXT NOT NULL,
    started_at       INTEGER NOT NULL,
    ended_at         INTEGER,
    outcome          TEXT           -- published | restored
  );
  -- integration_lock : the one integration lock of this machine (a lease with a heartbeat); the
  --                    row always exists; lane, owner and since are all null when it is free.
  --                    token increases with every grant (a fencing token).
  CREATE TABLE integration_lock (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    lane          TEXT,
    owner         TEXT,
    task          TEXT,
    since         INTEGER,
    heartbeat_at  INTEGER,
    token         INTEGER NOT NULL DEFAULT 0,
    CHECK ((lane IS NULL) = (owner IS NULL) AND (lane IS NULL) = (since IS NULL))
  );
  INSERT INTO integration_lock (id, token) VALUES (1, 0);
  -- integration_event : what sync, lane, delete and the restart normalisation did (sangam log).
  CREATE TABLE integration_event (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at       INTEGER NOT NULL,
    type     TEXT NOT NULL,
    lane     TEXT,
    payload  TEXT NOT NULL      -- JSON object
  );`

export type LaneState = 'idle' | 'integrating' | 'task' | 'deleting'

/** What an integration in progress was doing, so an interrupted one can be put right. */
export interface IntegrationJournal {
  readonly kind: 'direct' | 'merge' | 'task-publish'
  /** The state the lane returns to when the integration is undone. */
  readonly resume: 'idle' | 'task'
  /** The lane's HEAD before the sync touched it (a snapshot commit is undone back to it). */
  readonly headBefore: string
  /** Whether the sync committed uncommitted work as a snapshot. */
  readonly snapshotted: boolean
  readonly task: string | null
  /** The main publish under way: from → to. */
  readonly publishFrom: string | null
  readonly publishTo: string | null
}

export interface LaneRow {
  readonly name: string
  readonly branch: string
  readonly worktree: string
  readonly owner: string
  readonly agent: string | null
  readonly pane: string | null
  readonly state: LaneState
  readonly base: string | null
  readonly task: string | null
  readonly journal: IntegrationJournal | null
  readonly pid: number | null
  readonly createdAt: number
  readonly updatedAt: number
}

/** The columns under the row's field names: SQLite answers with the aliases. */
const fields =
  'name, branch, worktree, owner, agent, pane, state, base, task, journal, pid, created_at AS createdAt, updated_at AS updatedAt'

type Row = Omit<LaneRow, 'journal'> & { readonly journal: string | null }

function fromRow(row: Row): LaneRow {
  return { ...row, journal: row.journal === null ? null : (JSON.parse(row.journal) as IntegrationJournal) }
}

export function readLanes(db: Db): LaneRow[] {
  return (db.prepare(`SELECT ${fields} FROM lane ORDER BY name`).all() as Row[]).map(fromRow)
}

export function readLane(db: Db, name: string): LaneRow | null {
  const row = db.prepare(`SELECT ${fields} FROM lane WHERE name = ?`).get(name) as Row | undefined
  return row === undefined ? null : fromRow(row)
}

export function insertLane(
  db: Db,
  lane: Pick<LaneRow, 'name' | 'branch' | 'worktree' | 'owner' | 'agent' | 'pane' | 'base'>,
  now: number,
): void {
  db.prepare(
    `INSERT INTO lane (name, branch, worktree, owner, agent, pane, state, base, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'idle', ?, ?, ?)`,
  ).run(lane.name, lane.branch, lane.worktree, lane.owner, lane.agent, lane.pane, lane.base, now, now)
}

/** Changes some of a lane's fields; the rest stay. */
export function updateLane(
  db: Db,
  name: string,
  change: Partial<Pick<LaneRow, 'agent' | 'pane' | 'state' | 'base' | 'task' | 'journal' | 'pid' | 'owner'>>,
  now: number,
): void {
  const current = readLane(db, name)
  if (current === null) return
  const next = { ...current, ...change }
  db.prepare(
    `UPDATE lane SET owner = ?, agent = ?, pane = ?, state = ?, base = ?, task = ?, journal = ?, pid = ?, updated_at = ?
     WHERE name = ?`,
  ).run(
    next.owner,
    next.agent,
    next.pane,
    next.state,
    next.base,
    next.task,
    next.journal === null ? null : JSON.stringify(next.journal),
    next.pid,
    now,
    name,
  )
}

export function deleteLaneRow(db: Db, name: string): void {
  db.prepare('DELETE FROM lane WHERE name = ?').run(name)
}

/** Whether the lane tables exist (a database from before lanes, opened read-only, has none). */
export function hasLaneTables(db: Db): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lane'`).get() !== undefined
}

export interface LaneTaskRow {
  readonly id: string
  readonly lane: string
  readonly file: string
  readonly validationFile: string
  readonly snapshot: string
  readonly base: string
  readonly startedAt: number
  readonly endedAt: number | null
  readonly outcome: string | null
}

interface TaskRow {
  id: string
  lane: string
  file: string
  validation_file: string
  snapshot: string
  base: string
  started_at: number
  ended_at: number | null
  outcome: string | null
}

export function insertLaneTask(db: Db, task: Omit<LaneTaskRow, 'endedAt' | 'outcome'>): void {
  db.prepare(
    `INSERT INTO lane_task (id, lane, file, validation_file, snapshot, base, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(task.id, task.lane, task.file, task.validationFile, task.snapshot, task.base, task.startedAt)
}

export function readLaneTask(db: Db, id: string): LaneTaskRow | null {
  const row = db.prepare('SELECT * FROM lane_task WHERE id = ?').get(id) as TaskRow | undefined
  if (row === undefined) return null
  return {
    id: row.id,
    lane: row.lane,
    file: row.file,
    validationFile: row.validation_file,
    snapshot: row.snapshot,
    base: row.base,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    outcome: row.outcome,
  }
}

export function endLaneTask(db: Db, id: string, outcome: 'published' | 'restored', now: number): void {
  db.prepare('UPDATE lane_task SET ended_at = ?, outcome = ? WHERE id = ? AND ended_at IS NULL').run(
    now,
    outcome,
    id,
  )
}

/**
 * Marks lane `name` as integrating (journal, pid) if it is in `from`, in one statement: two syncs
 * of one lane cannot both begin. False when it was not in `from`.
 */
export function beginIntegration(
  db: Db,
  name: string,
  from: 'idle' | 'task',
  journal: IntegrationJournal,
  pid: number,
  now: number,
): boolean {
  return (
    db
      .prepare(
        `UPDATE lane SET state = 'integrating', journal = ?, pid = ?, updated_at = ? WHERE name = ? AND state = ?`,
      )
      .run(JSON.stringify(journal), pid, now, name, from).changes === 1
  )
}
