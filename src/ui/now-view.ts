import { basename } from 'node:path'
import type { DirectoryAgent, PresenceState, RoomDirectory } from '../core/room/directory.ts'
import { latestHumanTurn, latestSessionActivity } from '../services/memory/timeline.ts'
import { type MessageView, messageView, type ThreadView, threadView } from '../services/room/message-view.ts'
import { projectDirectory } from '../services/room/open-room.ts'
import { readMessages } from '../services/room/read.ts'
import { listThreads } from '../services/room/threads.ts'
import type { LiveSources, UiContext } from './ui-context.ts'

export interface NowActor {
  readonly handle: string
  readonly kind: 'agent' | 'human'
  readonly vendor: string | null
  readonly sessionId: string | null
  readonly state: PresenceState
  readonly worktree: string | null
  readonly branch: string | null
  readonly machine: string | null
  readonly lastActivity: { readonly at: string; readonly kind: string; readonly text: string } | null
}

export interface NowView {
  readonly project: { readonly id: string; readonly name: string }
  readonly me: { readonly handle: string }
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
  const threads = listThreads(project.db, { all: false })
  const agents = [...directory.agents]
    .sort((a, b) => stateOrder[a.state] - stateOrder[b.state] || a.handle.localeCompare(b.handle))
    .map((agent) => agentActor(ctx, agent))
  return {
    project: {
      id: project.repo.projectId,
      name: projectName(project.repo.remote, project.repo.worktrees[0] ?? project.repo.root),
    },
    me: { handle: project.human },
    live: ctx.live(),
    actors: [...agents, ...humanActors(ctx, directory)],
    blockedOnHuman: threads.filter((thread) => thread.audience === 'human-loop').map(threadView),
    messages: readMessages(project.db, { after: null, limit: latestMessages }).map(messageView),
  }
}

function agentActor(ctx: UiContext, agent: DirectoryAgent): NowActor {
  const last = latestSessionActivity(ctx.project.db, agent.sessionId, activityChars)
  return {
    handle: agent.handle,
    kind: 'agent',
    vendor: agent.vendor,
    sessionId: agent.sessionId,
    state: agent.state,
    worktree: agent.worktree,
    branch: agent.branch,
    machine: agent.machine,
    lastActivity:
      last === null ? null : { at: new Date(last.at).toISOString(), kind: last.kind, text: last.text },
  }
}

/** Humans are `online` when they are me or one of their agents is online, `idle` when one is idle. */
function humanActors(ctx: UiContext, directory: RoomDirectory): NowActor[] {
  const now = ctx.project.clock.now()
  return directory.humans.map((human) => {
    const theirs = directory.agents.filter((agent) => agent.human === human)
    const state: PresenceState =
      human === ctx.project.human ||
      theirs.some((agent) => agent.state === 'online' || agent.state === 'blocked')
        ? 'online'
        : theirs.some((agent) => agent.state === 'idle')
          ? 'idle'
          : 'offline'
    const last = latestHumanTurn(ctx.project.db, human, {
      now,
      withinMs: humanTurnWindowMs,
      chars: activityChars,
    })
    return {
      handle: human,
      kind: 'human',
      vendor: null,
      sessionId: null,
      state,
      worktree: null,
      branch: null,
      machine: null,
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
