import { worktreeStatuses } from '../../git/worktree-status.ts'
import type { MachineNames } from '../../identity/core/machine-labels.ts'
import { oneLine } from '../../shared/terminal-text.ts'
import type { Db } from '../../store/db.ts'
import type { RoomDirectory } from '../core/directory.ts'
import type { Targets, TargetWorktree } from '../protocol/targets-view.ts'
import { readPresence } from '../store/presence-table.ts'
import { readWorktreePlaces, type WorktreePlace } from '../store/worktree-state-table.ts'
import { statesLine, type WorktreeStatesSeen } from './daemon-round.ts'
import { loadDirectory } from './directory.ts'
import { machineNames } from './machine-names.ts'

export type { TargetAgent, TargetPerson, Targets, TargetWorktree } from '../protocol/targets-view.ts'

export interface TargetsInput {
  readonly machine: string
  /** This machine's readable name (identity/services/machine-name-file.ts); its id when not given. */
  readonly machineName?: string | undefined
  /** The human of this checkout: a person of the room even before any session of theirs. */
  readonly human?: string | undefined
  /** This machine's worktrees of the project. */
  readonly worktrees: readonly string[]
  readonly blocked?: ReadonlySet<string> | undefined
  /** Asked only when an idle Claude session is in the room (it spawns `claude`). */
  readonly liveClaudeSessions?: (() => ReadonlySet<string> | null) | undefined
  readonly now: number
  /**
   * When the running daemon's latest round read this machine's worktrees, while it is fresh
   * (`freshDaemonRound`): their states come from its rows, not from git. null or absent: git.
   */
  readonly daemonRoundAt?: number | null | undefined
}

const dayMs = 24 * 60 * 60 * 1000

/** Every agent and every worktree the room can address, with what git says of this machine's. */
export async function loadTargets(db: Db, input: TargetsInput): Promise<Targets> {
  const idleClaude = readPresence(db).some((row) => row.vendor === 'claude' && row.state === 'idle')
  const directory = loadDirectory(db, {
    machine: input.machine,
    worktrees: input.worktrees,
    human: input.human,
    blocked: input.blocked,
    liveClaudeSessions:
      idleClaude && input.liveClaudeSessions !== undefined ? input.liveClaudeSessions() : null,
  })
  const shared = new Map(readWorktreePlaces(db).map((state) => [`${state.machine}\0${state.path}`, state]))
  const names = machineNames(db, { id: input.machine, name: input.machineName ?? input.machine })
  return await targetsOf(directory, input, shared, names)
}

async function targetsOf(
  directory: RoomDirectory,
  input: TargetsInput,
  shared: ReadonlyMap<string, WorktreePlace>,
  names: MachineNames,
): Promise<Targets> {
  const local = directory.worktrees.filter((worktree) => worktree.machine === input.machine)
  const round = input.daemonRoundAt ?? null
  // The daemon's round keeps a row for every worktree it read: those are read, the rest asked.
  const fromDaemon = new Map(
    round === null
      ? []
      : local.flatMap((worktree) => {
          const row = shared.get(`${input.machine}\0${worktree.path}`)
          return row === undefined ? [] : [[worktree.path, row] as const]
        }),
  )
  const asked = await worktreeStatuses(
    local.filter((worktree) => !fromDaemon.has(worktree.path)).map((worktree) => worktree.path),
  )
  const statuses = new Map(asked.map((s) => [s.path, s]))
  for (const [path, row] of fromDaemon) {
    statuses.set(path, {
      path,
      missing: row.status === 'missing',
      uncommitted: row.status === 'missing' ? null : row.uncommitted,
      headCommittedAt: row.lastCommitAt,
    })
  }
  const states: WorktreeStatesSeen =
    round === null || fromDaemon.size === 0
      ? { source: 'git', at: null, ageMs: 0 }
      : { source: 'daemon', at: round, ageMs: Math.max(0, input.now - round) }
  const agents = directory.agents.map((agent) => ({
    handle: agent.handle,
    vendor: agent.vendor,
    sessionId: agent.sessionId,
    human: agent.human,
    state: agent.state,
    worktree: agent.worktree,
    machine: agent.machine,
    machineName: names.label(agent.machine),
  }))
  const people = directory.people.map((person) => ({
    handle: person.handle,
    name: person.name,
    state: person.state,
    machines: person.machines,
    machineNames: person.machines.map((machine) => names.label(machine)),
  }))
  const worktrees = directory.worktrees.map((worktree): TargetWorktree => {
    const status = worktree.machine === input.machine ? statuses.get(worktree.path) : undefined
    // Another machine's worktree: what its daemon last shared (room.worktree), when it did.
    const remote =
      worktree.machine === input.machine ? undefined : shared.get(`${worktree.machine}\0${worktree.path}`)
    const committedAt = status?.headCommittedAt ?? remote?.lastCommitAt ?? null
    return {
      path: worktree.path,
      target: worktree.target,
      branch: worktree.branch,
      uncommitted: status?.uncommitted ?? remote?.uncommitted ?? null,
      activeAgents: directory.agents.filter(
        (agent) =>
          agent.state !== 'offline' && agent.worktree === worktree.path && agent.machine === worktree.machine,
      ).length,
      ageDays: committedAt === null ? null : Math.max(0, Math.floor((input.now - committedAt) / dayMs)),
      machine: worktree.machine,
      machineName: names.label(worktree.machine),
      missing: status?.missing ?? false,
    }
  })
  return { agents, people, worktrees, states }
}

/** Three aligned tables: agents, people, then worktrees; machines by name, this one `(here)`. */
export function describeTargets(targets: Targets, machine: string): string {
  const place = (id: string, name: string): string => (id === machine ? `${name} (here)` : name)
  const agentRows = targets.agents.map((agent) => [
    `@${agent.handle}`,
    agent.vendor,
    agent.state,
    agent.sessionId.slice(0, 8),
    agent.worktree ?? '-',
    place(agent.machine, agent.machineName),
  ])
  const personRows = targets.people.map((person) => [
    `@${person.handle}`,
    person.name,
    person.state,
    person.machines.map((id, i) => place(id, person.machineNames[i] ?? id)).join(', ') || '-',
  ])
  const worktreeRows = targets.worktrees.map((worktree) => [
    `#${worktree.target}`,
    worktree.missing ? '(missing: git worktree prune)' : (worktree.branch ?? '(detached)'),
    worktree.uncommitted === null ? '-' : String(worktree.uncommitted),
    String(worktree.activeAgents),
    worktree.ageDays === null ? '-' : `${worktree.ageDays}d`,
    place(worktree.machine, worktree.machineName),
    worktree.path,
  ])
  return [
    agentRows.length === 0
      ? 'No agents in the room yet (their hooks, or the daemon capturing their transcripts, bring them in).'
      : table(['agent', 'vendor', 'state', 'session', 'worktree', 'machine'], agentRows),
    '',
    ...(personRows.length === 0 ? [] : [table(['person', 'name', 'state', 'machines'], personRows), '']),
    table(['worktree', 'branch', 'uncommitted', 'agents', 'age', 'machine', 'path'], worktreeRows),
    ...(statesLine(targets.states) === null ? [] : [statesLine(targets.states) as string]),
  ].join('\n')
}

function table(header: readonly string[], unsafeRows: readonly (readonly string[])[]): string {
  // A cell holds what other machines reported (a handle, a path): one line each, so rows stay rows (D291).
  const rows = unsafeRows.map((row) => row.map(oneLine))
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)].join('\n')
}
