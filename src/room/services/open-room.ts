import { loadMachineId } from '../../config/machine-id.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { Random } from '../../shared/random.ts'
import type { RoomDirectory } from '../core/directory.ts'
import type { AuthorKind } from '../protocol/message.ts'
import { openHumanLoopOpeners } from '../store/thread-table.ts'
import { loadDirectory } from './directory.ts'
import { gitContextOf } from './git-context.ts'
import { type RoomScope, senderName } from './room-scope.ts'

/**
 * The room as one caller sees it, for the CLI and the MCP tools alike: the directory (presence
 * from every machine, this checkout's worktrees, sessions blocked on a human-loop thread), the
 * caller as a poster (their handle or name, who is typing as the caller's channel tells it, and
 * the git context of `cwd`).
 */
export function openRoom(
  project: ProjectContext,
  actor: Actor,
  cwd: string,
  random: Random,
  author: AuthorKind,
): RoomScope {
  const directory = projectDirectory(project, random)
  return {
    db: project.db,
    clock: project.clock,
    random,
    directory,
    poster: {
      sender: senderName(directory, actor),
      actor,
      author,
      git: gitContextOf(project.repo.root, cwd),
    },
  }
}

/** The directory, with the checkout's own human in it (a human who never ran an agent is still in the room). */
export function projectDirectory(project: ProjectContext, random: Random): RoomDirectory {
  return loadDirectory(project.db, {
    machine: loadMachineId(project.env.sangamHome, random),
    worktrees: project.repo.worktrees,
    human: project.human,
    blocked: openHumanLoopOpeners(project.db),
  })
}
