import type { Actor } from '../../identity/protocol/actor.ts'
import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { scrubSecrets } from '../../secrets/core/scrubber.ts'
import type { Clock } from '../../shared/clock.ts'
import { type Random, systemRandom } from '../../shared/random.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import type { NoteResult } from '../protocol/note-view.ts'
import { EventWriter } from '../store/event-table.ts'
import { noteIdPrefix } from '../store/note-events.ts'

/** A note longer than this is a document; notes are decisions, a few lines each. */
export const maxNoteChars = 4000
/** The session of a note written outside any agent session (a human at the shell). */
export const cliSession = 'cli'

export interface NoteInput {
  readonly text: string
  /** Who writes: the human, and the agent session when known. */
  readonly actor: Actor
  readonly cwd: string | null
  readonly branch: string | null
  /** sangam's version: the "CLI version" of a note. */
  readonly version: string
}

export type { NoteResult } from '../protocol/note-view.ts'

/**
 * `note`: the one voluntary write. A note is an event of kind `note` and vendor `sangam` (D1),
 * attributed to the human and, when an agent writes it, to the agent's session, and indexed in the
 * same transaction, so the next search finds it. Text someone wrote on purpose is refused when it
 * holds a secret, as a post is (secrets/core/free-text-rule.ts); the cwd and branch it was written
 * in are context, redacted.
 */
export class MemoryNote {
  readonly #db: Db
  readonly #events: EventWriter
  readonly #clock: Clock
  readonly #random: Random

  constructor(db: Db, clock: Clock, random: Random = systemRandom) {
    this.#db = db
    this.#events = new EventWriter(db)
    this.#clock = clock
    this.#random = random
  }

  write(input: NoteInput): NoteResult {
    const trimmed = input.text.trim()
    if (trimmed === '')
      throw new SangamError(
        ErrorCode.InvalidInput,
        'a note needs text: sangam note "what was decided, and why"',
      )
    if (trimmed.length > maxNoteChars) {
      throw new SangamError(
        ErrorCode.InvalidInput,
        `a note holds at most ${maxNoteChars} characters (got ${trimmed.length}); keep the decision, link the rest`,
      )
    }
    const text = refuseSecret('the note', trimmed)
    const at = this.#clock.now()
    const id = `${noteIdPrefix}${Buffer.from(this.#random.bytes(12)).toString('hex')}`
    const sessionId = input.actor.sessionId ?? cliSession
    this.#db.transaction(() =>
      this.#events.insert({
        id,
        kind: 'note',
        vendor: 'sangam',
        cliVersion: input.version,
        sessionId,
        author: input.actor.human,
        cwd: input.cwd === null ? null : scrubSecrets(input.cwd),
        branch: input.branch === null ? null : scrubSecrets(input.branch),
        at,
        sourceFileId: null,
        byteOffset: null,
        part: 0,
        toolName: null,
        callId: null,
        joinKey: null,
        text,
        fullSize: text.length,
        shareable: true,
      }),
    )()
    return {
      id,
      at: new Date(at).toISOString(),
      author: input.actor.human,
      sessionId,
      branch: input.branch,
      text,
    }
  }
}
