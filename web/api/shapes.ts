// The dashboard API's answers (docs/ui.md, "API"): the same objects the CLI's `--json` prints.
// An answer a feature declares as a view schema is that schema's type (issue 21: one schema per
// answer); the rest are the dashboard's own routes, typed here by what the pages read.
// endpoints.ts checks each answer's outline at the edge.

import type { LaneLock, LaneView } from '../../src/lanes/protocol/lane-status-view.ts'
import type { ThreadItem, ThreadResult } from '../../src/memory/protocol/thread-view.ts'
import type { ProjectBoard } from '../../src/project/protocol/project-board-view.ts'
import type { ReadyAnswer } from '../../src/project/protocol/ready-answer-view.ts'
import type { BoardCard, BoardColumn } from '../../src/room/protocol/board-view.ts'
import type { MessageView, ThreadView } from '../../src/room/protocol/message-view.ts'
import type { ReadyBranch } from '../../src/room/protocol/ready-view.ts'
import type { Targets } from '../../src/room/protocol/targets-view.ts'

export type Message = MessageView
export type Thread = ThreadView
export type Card = BoardCard
export type { BoardColumn, LaneLock, ReadyBranch, Targets, ThreadItem }
/** A lane as `sangam status --json` shows it. */
export type LaneRow = LaneView
/** `sangam ready --json`'s answer, as the lanes page shows it. */
export type Ready = ReadyAnswer
export type Board = ProjectBoard
/** One moment expanded to its turn: `/api/thread`, as `sangam thread --json`. */
export type EventThread = ThreadResult

export type ActorState = 'online' | 'idle' | 'blocked' | 'offline'
export type Vendor = 'claude' | 'codex'

export type Activity = { at: number | string; kind: string; text: string }

export type Actor = {
  handle: string
  /** The person's name, or the human an agent acts for. */
  name?: string
  kind: 'agent' | 'human'
  vendor: Vendor | null
  sessionId: string | null
  state: ActorState
  worktree: string | null
  branch: string | null
  machine: string | null
  /** Readable machine names: an agent's one, every machine a person was seen on. */
  machineNames?: string[]
  lastActivity: Activity | null
}

export type Now = {
  project: { id: string; name: string }
  me: { handle: string; name?: string }
  /** Whether a daemon runs for the project (capture, team sync) and a team server is attached. */
  live?: { daemon: boolean; attached: boolean }
  actors: Actor[]
  blockedOnHuman: Thread[]
  messages: Message[]
}

export type TimelineEvent = {
  id: string
  kind: string
  vendor: string | null
  cliVersion?: string | null
  sessionId: string | null
  author?: string | null
  /** The agent's handle when the event is an agent session's. */
  handle?: string | null
  at: string | number
  cwd?: string | null
  worktree?: string | null
  branch?: string | null
  toolName?: string | null
  snippet?: string | null
  text: string
  truncated?: boolean
}
export type Timeline = { events: TimelineEvent[]; next: string | number | null }

export type LeaseHolder = {
  human: string | null
  vendor: string | null
  sessionId: string | null
  handle?: string | null
}
export type Lease = {
  id?: string
  pattern: string
  holder: LeaseHolder
  kind: string
  reason: string
  token: number
  takenAt: number
  renewedAt: number
  expiresAt: number
}
export type LeaseHistory = {
  at: number
  action: string
  pattern: string
  token: number
  holder: LeaseHolder
  by?: LeaseHolder | null
  reason?: string | null
}
export type Leases = { leases: Lease[]; history: LeaseHistory[] }

/** One `sync.published-*` entry of `sangam log`, of any machine of the team. */
export type Publish = {
  id: number
  at: number
  type: string
  lane: string | null
  machineName?: string
  payload: { main?: string; task?: string | null }
}
export type Lanes = {
  ready: Ready | null
  readyError?: string | { code?: string; message?: string } | null
  lanes: LaneRow[]
  lock: LaneLock | null
  main: { branch: string; commit: string | null } | null
  guard: { installed: boolean; missing: string[] } | null
  publishes: Publish[]
  lanesError: { code?: string; message?: string } | null
}

export type Charts = {
  activity: { actor: string; vendor?: string | null; perHour: number[] }[]
  eventsPerHour: { hour: number; count: number }[]
}
