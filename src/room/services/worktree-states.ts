import { createHash } from 'node:crypto'
import { type BaseChange, type BaseChanges, baseChanges } from '../../git/base-changes.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import { enqueueRecord } from '../../records/store/record-outbox.ts'
import { scrubSecrets } from '../../secrets/core/scrubber.ts'
import { guardWrite } from '../../secrets/core/wire-fields.ts'
import { mapLimit } from '../../shared/map-limit.ts'
import type { Db } from '../../store/db.ts'
import type { LocalWorktreeState } from '../core/cross-machine-overlap.ts'
import type { ReadyLane } from '../core/ready-verdict.ts'
import type { RoomWorktreeRecord } from '../protocol/records/room-worktree.ts'
import { maxPathHunks, maxWorktreePaths, type WorktreeStatePayload } from '../protocol/worktree.ts'
import {
  readMachineWorktreeStates,
  type WorktreeStateRow,
  writeWorktreeState,
} from '../store/worktree-state-table.ts'

/** A lane of this round with the HEAD its working state was made over. */
export interface LaneAtHead {
  readonly lane: ReadyLane
  readonly head: string | null
}

export interface WorktreeStateSources {
  readonly cwd: string
  readonly machine: string
  /** The main branch's name (the base is HEAD's merge base with it). */
  readonly main: string
  /** Each local worktree's `#target`, by path. */
  readonly targets: ReadonlyMap<string, string>
  readonly concurrency: number
  /**
   * Answers of earlier rounds by main, HEAD and working-state commit (the same commits give the
   * same answer), so an unchanged worktree costs no git; the daemon keeps one across rounds.
   */
  readonly memo?: BaseChangesMemo | undefined
}

/** Base changes remembered by `<main>\n<head>\n<commit>`; bounded by its owner. */
export type BaseChangesMemo = Map<string, BaseChanges | null>

/** Past this many answers the memo starts again (a round needs one per worktree). */
const memoLimit = 1000

/**
 * This machine's worktrees as `room.worktree` states: the merge base with main, the last commit's
 * time, the uncommitted count, and the paths changed since the base with their base line ranges.
 * A path the secret scrubber would change (a token in a file name) is left out: the record carries
 * it to every machine of the team. A lane that is gone is `missing`.
 */
export async function localWorktreeStates(
  lanes: readonly LaneAtHead[],
  sources: WorktreeStateSources,
  now: number,
): Promise<LocalWorktreeState[]> {
  const states = await mapLimit(lanes, sources.concurrency, async ({ lane, head }) => {
    const common = {
      machine: sources.machine,
      path: lane.worktree,
      target: sources.targets.get(lane.worktree) ?? null,
      branch: lane.branch,
      head,
      updatedAt: now,
    }
    if (lane.skipped === 'missing') {
      const state: WorktreeStatePayload = {
        ...common,
        status: 'missing',
        base: null,
        lastCommitAt: null,
        uncommitted: null,
        changes: [],
        truncated: false,
      }
      return { state, commit: '' }
    }
    if (lane.commit === null || head === null) return null
    const key = `${sources.main}\n${head}\n${lane.commit}`
    let found = sources.memo?.get(key)
    if (found === undefined) {
      found = await baseChanges(sources.cwd, sources.main, head, lane.commit, maxPathHunks)
      if (sources.memo !== undefined) {
        if (sources.memo.size >= memoLimit) sources.memo.clear()
        sources.memo.set(key, found)
      }
    }
    const shareable = (found?.changes ?? []).filter((change) => scrubSecrets(change.path) === change.path)
    const state: WorktreeStatePayload = {
      ...common,
      status: 'present',
      base: found?.base ?? null,
      lastCommitAt: found?.lastCommitAt ?? null,
      uncommitted: lane.uncommitted,
      changes: shareable.slice(0, maxWorktreePaths).map(toChange),
      truncated: shareable.length > maxWorktreePaths,
    }
    return { state, commit: lane.commit }
  })
  return states.flatMap((state) => (state === null ? [] : [state]))
}

function toChange(change: BaseChange): WorktreeStatePayload['changes'][number] {
  return { path: change.path, ranges: change.ranges === null ? null : change.ranges.map(([a, b]) => [a, b]) }
}

export interface PublishedStates {
  /** Records queued this round (states that changed, and worktrees gone since the last). */
  readonly queued: number
}

/**
 * Stores and queues each local state that differs from the one last published (by a digest of
 * everything but its time, so an identical state is never queued twice), and a `missing` state
 * for each worktree published before that this machine no longer has. One transaction.
 */
export function publishWorktreeStates(
  db: Db,
  machine: string,
  human: string,
  states: readonly WorktreeStatePayload[],
  now: number,
): PublishedStates {
  const actor: Actor = { human, vendor: null, sessionId: null }
  // The path, branch and target are context: redacted (the same way every round, so an unchanged
  // state still matches the one stored) before they are stored and shared.
  const shared = states.map((state) => guardWrite('room.worktree', { payload: state }).payload)
  return db
    .transaction((): PublishedStates => {
      const previous = new Map(readMachineWorktreeStates(db, machine).map((row) => [row.path, row]))
      const current = new Set(shared.map((state) => state.path))
      const gone = [...previous.values()]
        .filter((row) => !current.has(row.path) && row.status === 'present')
        .map(
          (row): WorktreeStatePayload => ({
            ...payloadOf(row),
            status: 'missing',
            changes: [],
            truncated: false,
          }),
        )
      let queued = 0
      for (const state of [...shared, ...gone]) {
        const before = previous.get(state.path)
        const digest = stateDigest(state)
        if (before !== undefined && before.digest === digest) continue
        const row: WorktreeStateRow = {
          ...state,
          updatedAt: Math.max(now, (before?.updatedAt ?? 0) + 1),
          change: (before?.change ?? 0) + 1,
          digest,
        }
        writeWorktreeState(db, row)
        enqueueRecord(db, worktreeDraft(row, actor), now)
        queued += 1
      }
      return { queued }
    })
    .immediate()
}

function payloadOf(row: WorktreeStateRow): WorktreeStatePayload {
  const { change: _change, digest: _digest, ...payload } = row
  return payload
}

function stateDigest(state: WorktreeStatePayload): string {
  const { updatedAt: _updatedAt, ...rest } = state
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex')
}

/**
 * Record ids keep every change in the log: `worktree:<machine>:<hash of the path>:<n>` (a path may
 * hold characters, or a length, a record id cannot).
 */
export function worktreeRecordId(machine: string, path: string, change: number): string {
  const pathHash = createHash('sha256').update(path).digest('hex').slice(0, 16)
  return `worktree:${machine}:${pathHash}:${change}`
}

function worktreeDraft(row: WorktreeStateRow, actor: Actor): Omit<RoomWorktreeRecord, 'gseq' | 'receivedAt'> {
  return {
    id: worktreeRecordId(row.machine, row.path, row.change),
    type: 'room.worktree',
    actor,
    at: new Date(row.updatedAt).toISOString(),
    payload: payloadOf(row),
  }
}
