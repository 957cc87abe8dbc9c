import type { EventKind } from '../shared/event-kinds.ts'
import type { VendorName } from '../shared/vendor-names.ts'

/** The agent CLIs whose transcripts sangam reads: every vendor. */
export type TranscriptVendor = VendorName

/**
 * How one non-blank transcript line was accounted for. Every line is exactly one of these, so that
 * `doctor` can show nothing was dropped silently.
 * - captured: produced at least one event (or extended one, for split messages);
 * - skipped: understood and deliberately not stored, with a reason;
 * - unknown: a record shape this reader does not know (recorded with its signature);
 * - unparseable: not JSON, or JSON that is not an object.
 */
export type LineClass = 'captured' | 'skipped' | 'unknown' | 'unparseable'

/**
 * Why a line was skipped (closed set; `docs/architecture.md` explains each).
 * - metadata: bookkeeping with no conversational content (titles, snapshots, token counts, settings);
 * - duplicate: the same content is captured from another record (Codex event_msg mirrors, replays);
 * - injected: text the CLI injected, not typed by the human and not said by the agent (environment,
 *   AGENTS.md, permissions, skill listings);
 * - fork-history: history a forked thread copied from its parent, met by a state from an older sangam
 *   (a copy is now read as the parent's thread, see `codex-reader.ts`);
 * - mirror: a copy of a record that lives in another file (Claude agent_progress of a subagent);
 * - encrypted: reasoning that is only available encrypted (counted, never stored);
 * - empty: a record whose content is empty (an empty thinking block, an empty message);
 * - lifecycle: turn and task start/end markers, hook progress, queue operations.
 */
export type SkipReason =
  | 'metadata'
  | 'duplicate'
  | 'injected'
  | 'fork-history'
  | 'mirror'
  | 'encrypted'
  | 'empty'
  | 'lifecycle'

/** An event as a reader produces it; capture adds the id, source, offset and author. */
export interface ReadEvent {
  readonly kind: EventKind
  /** ms epoch from the line; readers fall back to the last time seen in the file. */
  readonly at: number
  readonly sessionId: string
  readonly cliVersion: string | null
  readonly cwd: string | null
  readonly branch: string | null
  /** Raw (unscrubbed, unbounded) text; capture scrubs and bounds it. */
  readonly text: string
  readonly toolName: string | null
  readonly callId: string | null
  /**
   * Set when later lines may extend this event (Claude `message.id` of a split assistant message).
   * An event whose joinKey already exists in the same file is appended to that event instead.
   */
  readonly joinKey: string | null
  /**
   * The history the event belongs to when it is not simply its session's: a Claude subagent's
   * transcript (same session, its own agent), a Codex thread's copy of its parent's history (the
   * parent's session). Capture numbers events per history; an event's id is its history, its
   * number there and its content, so a copy of a history gets the ids of the original.
   */
  readonly thread?: string | undefined
}

/** What the reader says about one JSON value found on a line. */
export interface ReadOutcome {
  readonly class: Exclude<LineClass, 'unparseable'>
  readonly reason?: SkipReason | undefined
  readonly events: readonly ReadEvent[]
  /** For class 'unknown': the record type and its field signature, recorded for doctor. */
  readonly unknown?: { readonly recordType: string; readonly signature: string } | undefined
  /** Encrypted reasoning items seen in this record (counted, not stored). */
  readonly encryptedReasoning?: number | undefined
}

/** What a reader knows about the file so far, taken from its records. */
export interface FileFacts {
  readonly sessionId: string | null
  readonly cliVersion: string | null
  /** The first working directory seen; decides whether the file belongs to the project. */
  readonly firstCwd: string | null
}

/**
 * A vendor reader is a pure state machine: (state, one parsed JSON value) → (state, outcome).
 * Its state is JSON-serialisable and is stored with the file offset in the same transaction as
 * the events, so a restart resumes mid-file exactly where the last commit left off.
 */
export interface TranscriptReader<State> {
  readonly vendor: TranscriptVendor
  initialState(): State
  /** Restores a state written by `serialise`; a state from an older sangam may be partial. */
  restore(json: string): State
  serialise(state: State): string
  read(state: State, record: unknown): { state: State; outcome: ReadOutcome }
  facts(state: State): FileFacts
}
