// The dashboard API's answers (docs/ui.md, "API"): the same objects the CLI's `--json` prints.
// Only what the pages read is typed; endpoints.ts checks each answer's outline at the edge.

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

export type Thread = {
  id: string
  title: string
  reason: string | null
  audience: 'agents' | 'human-loop'
  lifetime: string
  status: 'open' | 'closed'
  participants: string[]
  paths: string[]
  source: string
  updatedAt: number
}

export type Message = {
  id: string
  kind: string
  topic: string | null
  text: string
  sender: string
  recipients: string[]
  threadId: string | null
  at: number
  worktree: string | null
  branch: string | null
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

export type Card = { threadId: string; title: string; detail: string; owners: string[] }
export type BoardColumn = 'backlog' | 'doing' | 'blocked' | 'done'
/** A lane as `sangam board --json` shows it (the task is its id only). */
export type BoardLane = {
  name: string
  state: string
  owner: string
  agent: string | null
  behind: number
  dirty: boolean
  task: string | null
  next: string
}
export type Board = {
  columns: Record<BoardColumn, Card[]>
  /** Empty in a project without lanes. */
  lanes: BoardLane[]
  lock: LaneLock | null
  lanesError: { code?: string; message?: string } | null
  /** How current the conflict threads among the cards are; `note` says why they may not be. */
  collisions: { source: string; lookedAt: number | null; note: string | null } | null
}

export type Targets = {
  agents: {
    handle: string
    vendor: Vendor | null
    sessionId: string
    state: ActorState
    worktree: string | null
  }[]
  worktrees: {
    path: string
    target: string
    branch: string | null
    machine: string | null
    missing?: boolean
  }[]
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

export type ThreadItem = {
  id: string
  kind: string
  at: string | number
  toolName: string | null
  text: string
  truncated: boolean
  status: string | null
  focus: boolean
  subagent: boolean
}
export type EventThread = {
  focus: string
  session: { id: string; vendor: string; author: string | null; branch: string | null; cwd: string | null }
  human: ThreadItem | null
  items: ThreadItem[]
  omittedBefore: number
  omittedAfter: number
}

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

export type Collision = { branch: string | null; worktree: string; paths: string[] }
export type ReadyBranch = {
  branch: string | null
  worktree: string
  mergesCleanly: boolean
  conflicts: string[]
  collidesWith: Collision[]
  uncommitted: number
  skipped: string | null
}
export type Ready = {
  into: string
  complete: boolean
  clean: number
  latent: number
  conflicted: number
  branches: ReadyBranch[]
}
/** A lane as `sangam status --json` shows it. */
export type LaneRow = {
  name: string
  state: 'clean' | 'dirty' | 'task' | 'integrating' | 'deleting' | 'missing'
  branch: string
  head: string | null
  dirty: boolean
  behind: number
  task: { id: string; file: string; validationFile: string } | null
  owner: string
  worktree: string
  agent: string | null
  next: string
}
export type LaneLock = {
  lane: string
  task: string | null
  since: number
  owner: string
  heartbeatAt: number
  /** Silent past lanes.lock-stale-minutes: a takeover may end it. */
  stale: boolean
}
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
