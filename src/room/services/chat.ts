import { loadMachineId } from '../../config/machine-id.ts'
import { headBranch } from '../../git/git-layout.ts'
import type { Actor } from '../../identity/protocol/actor.ts'
import type { ProjectContext } from '../../identity/services/project-context.ts'
import type { Random } from '../../shared/random.ts'
import type { AuthorKind, RoomMessage } from '../protocol/message.ts'
import { withPostDefaults } from '../protocol/post-input.ts'
import {
  lastMessageSeq,
  latestMessages,
  messagesArrivedAfter,
  type StoredMessage,
} from '../store/message-table.ts'
import { readPresence } from '../store/presence-table.ts'
import { openRoom } from './open-room.ts'
import { post } from './post.ts'
import { recordPresence } from './presence.ts'

/**
 * What `chat` does that is not terminal I/O: the human's presence in the room (vendor `human`, one
 * session per run: online while it runs, offline when it ends), the recent messages, the ones that
 * arrived since (posted here or pulled from the team by the daemon's replicator), and posting a
 * typed line through `post`, with its refusals.
 */
export class ChatSession {
  readonly #project: ProjectContext
  readonly #random: Random
  readonly #cwd: string
  readonly #machine: string
  readonly #actor: Actor
  readonly #author: AuthorKind
  /** This run's presence session: `chat-` and 12 hex. */
  readonly sessionId: string
  /** The local seq of the last message handed out. */
  #seenSeq = 0

  /** `author`: who types, as the terminal tells it (`room/core/post-author.ts`, channel `chat`). */
  constructor(project: ProjectContext, random: Random, cwd: string, author: AuthorKind) {
    this.#project = project
    this.#random = random
    this.#cwd = cwd
    this.#machine = loadMachineId(project.env.sangamHome, random)
    // A human at a terminal, whatever agent session variables the shell inherited.
    this.#actor = { human: project.human, vendor: null, sessionId: null }
    this.#author = author
    this.sessionId =
      reusableSession(project, this.#machine) ?? `chat-${random.uuid().replaceAll('-', '').slice(0, 12)}`
  }

  /** Online, and the latest `recent` messages to print first. */
  start(recent: number): StoredMessage[] {
    this.#presence('online')
    const messages = latestMessages(this.#project.db, recent)
    this.#seenSeq = lastMessageSeq(this.#project.db)
    return messages
  }

  /** The messages that reached this replica since the last call, in arrival order. */
  poll(): StoredMessage[] {
    const messages = messagesArrivedAfter(this.#project.db, this.#seenSeq, 200)
    for (const message of messages) this.#seenSeq = Math.max(this.#seenSeq, message.seq)
    return messages
  }

  /** Posts a typed line as the human; throws the post's SangamError when it is refused. */
  say(text: string): RoomMessage {
    const scope = openRoom(this.#project, this.#actor, this.#cwd, this.#random, this.#author)
    return post(scope, withPostDefaults({ text }))
  }

  /** Offline: the run is over. */
  stop(): void {
    this.#presence('offline')
  }

  #presence(state: 'online' | 'offline'): void {
    const repo = this.#project.repo
    recordPresence(
      this.#project.db,
      {
        vendor: 'human',
        sessionId: this.sessionId,
        human: this.#project.human,
        worktree: repo.root,
        branch: headBranch(repo.root),
        machine: this.#machine,
        state,
      },
      this.#project.clock.now(),
    )
  }
}

/**
 * The session of an earlier chat of this human on this machine that has ended (offline), the one
 * first seen: a new run takes it over, so the human keeps one handle (`@asha`) across runs instead
 * of a new `-2`, `-3` each time; two chats open at once still get two sessions.
 */
function reusableSession(project: ProjectContext, machine: string): string | null {
  const ended = readPresence(project.db)
    .filter(
      (row) =>
        row.vendor === 'human' &&
        row.human === project.human &&
        row.machine === machine &&
        row.state === 'offline',
    )
    .sort((a, b) => a.firstSeenAt - b.firstSeenAt)
  return ended[0]?.sessionId ?? null
}
