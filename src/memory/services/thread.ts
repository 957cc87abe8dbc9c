import { basename } from 'node:path'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import type { Db } from '../../store/database.ts'
import { splitExecOutput } from '../core/exec-output.ts'
import type { EventKind } from '../protocol/event.ts'
import type { ThreadItem, ThreadResult } from '../protocol/thread-view.ts'
import { getEventById, type StoredEvent } from '../store/event-table.ts'
import { type FilePosition, type SessionFile, ThreadQueries } from '../store/event-thread.ts'
import { type BoundedText, boundText, headLines } from './bounded-text.ts'

export type { ThreadItem, ThreadResult } from '../protocol/thread-view.ts'

/** `--before N` / `--after N`: at most N events of the turn before, and after, the focus. */
export interface ThreadOptions {
  readonly before?: number | undefined
  readonly after?: number | undefined
}

/** At most this many events of a turn are shown, centred on the focus. */
export const maxThreadItems = 120
/** The tool output asked for shows this many lines; other tool output, its first few. */
const focusOutputLines = 40
const turnReadLimit = 5000

/** `thread`: one moment expanded to its human turn and what the agent did next. */
export class MemoryThread {
  readonly #db: Db
  readonly #queries: ThreadQueries

  constructor(db: Db) {
    this.#db = db
    this.#queries = new ThreadQueries(db)
  }

  thread(eventId: string, options: ThreadOptions = {}): ThreadResult {
    const before = checkedBound('--before', options.before)
    const after = checkedBound('--after', options.after)
    const focus = getEventById(this.#db, eventId.trim())
    if (focus === null) {
      throw new SangamError(
        ErrorCode.NotFound,
        `no event ${eventId} in this project's memory (ids come from search, and each project has its own)`,
      )
    }
    const { human, events, mainFile } = this.#turn(focus)
    const inTurn = events.filter((event) => event.id !== human?.id)
    const { shown, omittedBefore, omittedAfter } = aroundFocus(inTurn, focus.id, before, after)
    const item = (event: StoredEvent): ThreadItem => toItem(event, focus.id, mainFile)
    return {
      focus: focus.id,
      session: {
        id: focus.sessionId,
        vendor: focus.vendor,
        cliVersion: focus.cliVersion,
        author: focus.author,
        branch: focus.branch,
        cwd: focus.cwd,
      },
      human: human === null ? null : item(human),
      items: shown.map(item),
      omitted: omittedBefore + omittedAfter,
      omittedBefore,
      omittedAfter,
    }
  }

  #turn(focus: StoredEvent): {
    human: StoredEvent | null
    events: StoredEvent[]
    focusFile: SessionFile | undefined
    mainFile: SessionFile | undefined
  } {
    const files = this.#queries.sessionFiles(focus.sessionId)
    const focusFile = files.find((file) => file.path === focus.sourcePath)
    const mainFile =
      focusFile && !isSubagentFile(focusFile) ? focusFile : files.find((f) => !isSubagentFile(f))
    if (mainFile === undefined) return { human: null, events: [focus], focusFile, mainFile }
    const focusAt = Date.parse(focus.at)
    const human =
      focusFile === mainFile
        ? this.#queries.humanAtOrBefore(positionOf(focus, mainFile.id))
        : this.#queries.humanBeforeTime(mainFile.id, focusAt)
    const start =
      human === null ? { fileId: mainFile.id, offset: 0, part: 0 } : positionOf(human, mainFile.id)
    const next = this.#queries.humanAfter(start)
    const end = next === null ? null : positionOf(next, mainFile.id)
    let main = this.#queries.range(start, end, turnReadLimit)
    if (focusFile === mainFile && !main.some((event) => event.id === focus.id)) {
      // A turn longer than the read limit: read on from the focus instead.
      main = this.#queries.range(positionOf(focus, mainFile.id), end, maxThreadItems)
    }
    const from =
      human === null ? Math.min(focusAt, Date.parse(main[0]?.at ?? focus.at)) : Date.parse(human.at)
    const to = next === null ? null : Date.parse(next.at)
    const others = this.#queries.notesBetween(focus.sessionId, from, to, turnReadLimit)
    if (focusFile !== undefined && focusFile !== mainFile) {
      others.push(...this.#queries.fileBetween(focusFile.id, from, to, turnReadLimit))
    }
    if (focus.kind === 'note' && !others.some((event) => event.id === focus.id)) others.push(focus)
    return { human, events: mergeByTime(main, others), focusFile, mainFile }
  }
}

/** Claude writes a subagent's transcript to `agent-<id>.jsonl`, beside or below the session's own. */
function isSubagentFile(file: SessionFile): boolean {
  return basename(file.path).startsWith('agent-')
}

function positionOf(event: StoredEvent, fileId: number): FilePosition {
  return { fileId, offset: event.byteOffset ?? 0, part: event.part }
}

/** Inserts `others` (sorted by time) among `main` (in file order) by time; ties keep main first. */
function mergeByTime(main: readonly StoredEvent[], others: readonly StoredEvent[]): StoredEvent[] {
  const rest = [...others].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq)
  const merged: StoredEvent[] = []
  let next = 0
  for (const event of main) {
    for (
      let other = rest[next];
      other !== undefined && Date.parse(other.at) < Date.parse(event.at);
      other = rest[++next]
    ) {
      merged.push(other)
    }
    merged.push(event)
  }
  return [...merged, ...rest.slice(next)]
}

function checkedBound(flag: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined
  if (Number.isInteger(value) && value >= 0 && value <= maxThreadItems) return value
  throw new SangamError(
    ErrorCode.InvalidInput,
    `${flag} must be a whole number from 0 to ${maxThreadItems}; got ${value}`,
  )
}

/**
 * The events shown around the focus: `before` and `after` of them when asked (the side not asked
 * for gets half of `maxThreadItems`), else at most `maxThreadItems` centred on it. A focus that is
 * the human turn itself (not among the events) comes before all of them.
 */
function aroundFocus(
  events: readonly StoredEvent[],
  focusId: string,
  before: number | undefined,
  after: number | undefined,
): { shown: StoredEvent[]; omittedBefore: number; omittedAfter: number } {
  const index = events.findIndex((event) => event.id === focusId)
  let start: number
  let end: number
  if (before === undefined && after === undefined) {
    if (events.length <= maxThreadItems) return { shown: [...events], omittedBefore: 0, omittedAfter: 0 }
    const at = Math.max(0, index)
    start = Math.min(Math.max(0, at - Math.floor(maxThreadItems / 2)), events.length - maxThreadItems)
    end = start + maxThreadItems
  } else {
    const half = Math.floor(maxThreadItems / 2)
    start = index < 0 ? 0 : Math.max(0, index - (before ?? half))
    end = Math.min(events.length, (index < 0 ? 0 : index + 1) + (after ?? half))
  }
  return { shown: events.slice(start, end), omittedBefore: start, omittedAfter: events.length - end }
}

function toItem(event: StoredEvent, focusId: string, mainFile: SessionFile | undefined): ThreadItem {
  const focus = event.id === focusId
  const exec = event.kind === 'tool_output' && event.vendor === 'codex' ? splitExecOutput(event.text) : null
  const bounded = boundFor(event.kind, exec?.output ?? event.text, focus)
  return {
    id: event.id,
    kind: event.kind,
    at: event.at,
    toolName: event.toolName,
    text: bounded.text,
    truncated: bounded.truncated,
    status: exec?.status ?? null,
    focus,
    subagent: event.sourcePath !== null && mainFile !== undefined && event.sourcePath !== mainFile.path,
  }
}

/**
 * Tool output shows its first lines (more of them for the output asked for); a tool call its head;
 * what people and models said, more.
 */
function boundFor(kind: EventKind, text: string, focus: boolean): BoundedText {
  switch (kind) {
    case 'tool_output':
      return headLines(text, focus ? focusOutputLines : 6, 200)
    case 'tool_call':
      return headLines(text, 10, 200)
    case 'human':
    case 'assistant':
      return boundText(text, 2000)
    default:
      return boundText(text, 1000)
  }
}
