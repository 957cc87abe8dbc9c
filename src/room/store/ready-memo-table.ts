import type { Db } from '../../store/db.ts'

// ready_memo : git's answers about pairs of commits, kept because commits never change, so an
//   answer never goes stale. kind 'merge': the merge of `left` and `right` (sorted, so a pair is
//   one row whichever way it is asked), `paths` the conflicted ones. kind 'touched': what `right`
//   changes since it left `left` (the target), `paths` those paths; clean is 1. A 'touched' row
//   whose `left` is `state:<key>` keeps a dirty worktree's working state (readKeptStates). `used_at` moves
//   on every hit; past `maxMemoRows` of a kind its least recently used rows go (pruneReadyMemo).
export const createReadyMemoTable = /*sql*/ `
  CREATE TABLE ready_memo (
    kind     TEXT NOT NULL CHECK (kind IN ('merge', 'touched')),
    left     TEXT NOT NULL,            -- commit id
    right    TEXT NOT NULL,            -- commit id
    clean    INTEGER NOT NULL CHECK (clean IN (0, 1)),
    paths    TEXT NOT NULL,            -- JSON array, sorted
    used_at  INTEGER NOT NULL,         -- ms epoch of the last read or write
    PRIMARY KEY (kind, left, right)
  ) WITHOUT ROWID;
  CREATE INDEX ready_memo_used ON ready_memo (used_at);`

export type MemoKind = 'merge' | 'touched'

export interface MemoAnswer {
  readonly clean: boolean
  readonly paths: readonly string[]
}

/**
 * The bounds, per kind, least recently used going first. A merge row is small (conflicted paths,
 * usually none): 20 lanes make at most 210 a round, and 20,000 hold weeks of rounds. A touched
 * row lists every path a lane changed, so it can be large (a branch touching 5,000 files is some
 * 200 KB), and each edit of a lane makes a new one: 1,000 keep a long day of rounds for 20 lanes
 * while the table stays in the tens of MB however large the branches.
 */
export const maxMemoRows: Readonly<Record<MemoKind, number>> = { merge: 20_000, touched: 1_000 }

/** The answers stored for these pairs (of one kind), by `left\nright`; marks them used at `now`. */
export function readMemo(
  db: Db,
  kind: MemoKind,
  pairs: readonly (readonly [string, string])[],
  now: number,
): Map<string, MemoAnswer> {
  const found = new Map<string, MemoAnswer>()
  if (pairs.length === 0) return found
  const select = db.prepare('SELECT clean, paths FROM ready_memo WHERE kind = ? AND left = ? AND right = ?')
  const touch = db.prepare('UPDATE ready_memo SET used_at = ? WHERE kind = ? AND left = ? AND right = ?')
  db.transaction(() => {
    for (const [left, right] of pairs) {
      const row = select.get(kind, left, right) as { clean: number; paths: string } | undefined
      if (row === undefined) continue
      found.set(`${left}\n${right}`, { clean: row.clean === 1, paths: JSON.parse(row.paths) as string[] })
      touch.run(now, kind, left, right)
    }
    // Immediate: a deferred transaction that reads and then writes fails at once (SQLITE_BUSY,
    // no wait) when another process wrote in between, as two reads looking at once do (D350).
  }).immediate()
  return found
}

/** Stores answers (one transaction), then prunes past the bound. */
export function writeMemo(
  db: Db,
  kind: MemoKind,
  answers: readonly { readonly left: string; readonly right: string; readonly answer: MemoAnswer }[],
  now: number,
): void {
  if (answers.length === 0) return
  const insert = db.prepare(
    /*sql*/ `INSERT OR REPLACE INTO ready_memo (kind, left, right, clean, paths, used_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  )
  db.transaction(() => {
    for (const { left, right, answer } of answers) {
      insert.run(kind, left, right, answer.clean ? 1 : 0, JSON.stringify(answer.paths), now)
    }
    pruneReadyMemo(db, kind, maxMemoRows[kind])
  }).immediate()
}

/** Keeps the `keep` most recently used rows of one kind. */
export function pruneReadyMemo(db: Db, kind: MemoKind, keep: number): number {
  return db
    .prepare(
      /*sql*/ `DELETE FROM ready_memo WHERE kind = ? AND (left, right) IN (
         SELECT left, right FROM ready_memo WHERE kind = ? ORDER BY used_at DESC LIMIT -1 OFFSET ?)`,
    )
    .run(kind, kind, keep).changes
}

export function countReadyMemo(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM ready_memo').get() as { n: number }).n
}

/**
 * Working states kept by key (git/working-state-key.ts), rows of kind 'touched' whose `left` is
 * `state:<key>` (never a commit id, so never a lane's touched paths): `right` the state commit,
 * `paths` its uncommitted paths. A key names one worktree as it stood, so its row never goes
 * stale either; found ones are marked used at `now`.
 */
export function readKeptStates(
  db: Db,
  keys: readonly string[],
  now: number,
): Map<string, { readonly commit: string; readonly uncommitted: readonly string[] }> {
  const found = new Map<string, { readonly commit: string; readonly uncommitted: readonly string[] }>()
  if (keys.length === 0) return found
  const select = db.prepare(
    "SELECT right, paths FROM ready_memo WHERE kind = 'touched' AND left = ? ORDER BY used_at DESC LIMIT 1",
  )
  const touch = db.prepare("UPDATE ready_memo SET used_at = ? WHERE kind = 'touched' AND left = ?")
  db.transaction(() => {
    for (const key of keys) {
      const row = select.get(keptStateLeft(key)) as { right: string; paths: string } | undefined
      if (row === undefined) continue
      found.set(key, { commit: row.right, uncommitted: JSON.parse(row.paths) as string[] })
      touch.run(now, keptStateLeft(key))
    }
  }).immediate()
  return found
}

/** Keeps working states by key (one transaction, pruned with the touched rows). */
export function writeKeptStates(
  db: Db,
  states: readonly {
    readonly key: string
    readonly state: { readonly commit: string; readonly uncommitted: readonly string[] }
  }[],
  now: number,
): void {
  writeMemo(
    db,
    'touched',
    states.map(({ key, state }) => ({
      left: keptStateLeft(key),
      right: state.commit,
      answer: { clean: true, paths: state.uncommitted },
    })),
    now,
  )
}

function keptStateLeft(key: string): string {
  return `state:${key}`
}
