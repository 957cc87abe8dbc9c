import { basename } from 'node:path'
import type { MachineNames } from '../identity/core/machine-labels.ts'
import { thisMachine } from '../identity/services/this-machine.ts'
import { latestHumanTurn, latestSessionActivity } from '../memory/services/timeline.ts'
import type { DirectoryAgent, PresenceState, RoomDirectory } from '../room/core/directory.ts'
import { machineNames } from '../room/services/machine-names.ts'
import { type MessageView, messageView, type ThreadView, threadView } from '../room/services/message-view.ts'
import { projectDirectory } from '../room/services/open-room.ts'
import { readMessages } from '../room/services/read.ts'
import { listThreads } from '../room/services/threads.ts'
import type { LiveSources, UiContext } from './ui-context.ts'

export interface NowActor {
  /** Without `@`: an agent session's handle, or a person's (what `@bob` addresses). */
  readonly handle: string
  /** The human's name: the person's own, or the one an agent acts for. */
  readonly name: string
  readonly kind: 'agent' | 'human'
  readonly vendor: string | null
  readonly sessionId: string | null
  readonly state: PresenceState
  readonly worktree: string | null
  readonly branch: string | null
  /** An agent's machine by id; null for a person (see `machineNames`). */
  readonly machine: string | null
  /** The readable names of the machines it is on: an agent's one, every machine a person was seen on. */
  readonly machineNames: readonly string[]
  readonly lastActivity: { readonly at: string; readonly kind: string; readonly text: string } | null
}

export interface NowView {
  readonly project: { readonly id: string; readonly name: string }
  /** The person running the dashboard: their handle and name. */
  readonly me: { readonly handle: string; readonly name: string }
  readonly live: LiveSources
  readonly actors: readonly NowActor[]
  readonly blockedOnHuman: readonly ThreadView[]
  readonly messages: readonly MessageView[]
}

const activityChars = 200
const latestMessages = 20
/** A human's last turn counts for "what they last did" this far back. */
const humanTurnWindowMs = 7 * 24 * 60 * 60 * 1000
const stateOrder: Readonly<Record<PresenceState, number>> = { blocked: 0, online: 1, idle: 2, offline: 3 }

/**
 * The Now page: everyone in the room (agents from every machine, then the humans), what waits on
 * a human, the latest messages. Agents are ordered blocked, online, idle, offline, then by handle.
 */
export function nowView(ctx: UiContext): NowView {
  const { project } = ctx
  const directory = projectDirectory(project, ctx.random)
  const names = machineNames(project.db, thisMachine(project.env.sangamHome, ctx.random))
  const threads = listThreads(project.db, { all: false })
  const agents = [...directory.agents]
    .sort((a, b) => stateOrder[a.state] - stateOrder[b.state] || a.handle.localeCompare(b.handle))
    .map((agent) => agentActor(ctx, agent, names))
  const me = directory.people.find((person) => person.name === project.human)
  return {
    project: {
      id: project.repo.projectId,
      name: projectName(project.repo.remote, project.repo.worktrees[0] ?? project.repo.root),
    },
    me: { handle: me?.handle ?? project.human, name: project.human },
    live: ctx.live(),
    actors: [...agents, ...personActors(ctx, directory, names)],
    blockedOnHuman: threads.filter((thread) => thread.audience === 'human-loop').map(threadView),
    messages: readMessages(project.db, { after: null, limit: latestMessages }).map(messageView),
  }
}

function agentActor(ctx: UiContext, agent: DirectoryAgent, names: MachineNames): NowActor {
  const last = latestSessionActivity(ctx.project.db, agent.sessionId, activityChars)
  return {
    handle: agent.handle,
    name: agent.human,
    kind: 'agent',
    vendor: agent.vendor,
    sessionId: agent.sessionId,
    state: agent.state,
    worktree: agent.worktree,
    branch: agent.branch,
    machine: agent.machine,
    machineNames: [names.label(agent.machine)],
    lastActivity:
      last === null ? null : { at: new Date(last.at).toISOString(), kind: last.kind, text: last.text },
  }
}

/**
 * People, once each whatever machines and channels they use: `online` when they are me or the
 * directory says so (a chat or an agent of theirs online), else its state.
 */
function personActors(ctx: UiContext, directory: RoomDirectory, names: MachineNames): NowActor[] {
  const now = ctx.project.clock.now()
  return directory.people.map((person) => {
    const state: PresenceState = person.name === ctx.project.human ? 'online' : person.state
    const last = latestHumanTurn(ctx.project.db, person.name, {
      now,
      withinMs: humanTurnWindowMs,
      chars: activityChars,
    })
    return {
      handle: person.handle,
      name: person.name,
      kind: 'human',
      vendor: null,
      sessionId: null,
      state,
      worktree: null,
      branch: null,
      machine: null,
      machineNames: person.machines.map((machine) => names.label(machine)),
      lastActivity:
        last === null ? null : { at: new Date(last.at).toISOString(), kind: last.kind, text: last.text },
    }
  })
}

/** The repository's name: the remote's last segment, else the main worktree's directory. */
function projectName(remote: string | null, mainWorktree: string): string {
  const fromRemote = remote
    ?.replace(/\/+$/, '')
    .split(/[/:]/)
    .at(-1)
    ?.replace(/\.git$/, '')
  return fromRemote !== undefined && fromRemote !== '' ? fromRemote : basename(mainWorktree)
}
