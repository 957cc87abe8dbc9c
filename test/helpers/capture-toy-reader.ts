import type { ReadEvent, ReadOutcome, TranscriptReader } from '../../src/agents/transcript-reader.ts'
import type { EventKind } from '../../src/memory/protocol/event.ts'

/**
 * A tiny transcript format for testing capture without depending on a vendor reader:
 * `{"t":"h"|"a"|"o"|"meta"|"enc"|…, "s": session, "cwd", "text", "at", "j": joinKey}`.
 * h → human, a → assistant, o → tool_output, meta → skipped, enc → skipped encrypted reasoning,
 * anything else → unknown. Its state is what a real reader's is: small, serialisable, carried
 * across commits.
 */
export interface ToyState {
  readonly sessionId: string | null
  readonly firstCwd: string | null
  readonly cwd: string | null
  readonly lastAt: number
}

const kinds: Record<string, EventKind> = { h: 'human', a: 'assistant', o: 'tool_output' }

export const toyReader: TranscriptReader<ToyState> = {
  vendor: 'claude',
  initialState: () => ({ sessionId: null, firstCwd: null, cwd: null, lastAt: 0 }),
  restore: (json) => ({
    sessionId: null,
    firstCwd: null,
    cwd: null,
    lastAt: 0,
    ...(JSON.parse(json) as object),
  }),
  serialise: (state) => JSON.stringify(state),
  facts: (state) => ({ sessionId: state.sessionId, cliVersion: '9.9.9', firstCwd: state.firstCwd }),
  read(state, record) {
    const fields = (typeof record === 'object' && record !== null ? record : {}) as Record<string, unknown>
    const cwd = typeof fields.cwd === 'string' ? fields.cwd : state.cwd
    const next: ToyState = {
      sessionId: typeof fields.s === 'string' ? fields.s : state.sessionId,
      firstCwd: state.firstCwd ?? cwd,
      cwd,
      lastAt: typeof fields.at === 'number' ? fields.at : state.lastAt,
    }
    return { state: next, outcome: outcomeOf(fields, next) }
  },
}

function outcomeOf(fields: Record<string, unknown>, state: ToyState): ReadOutcome {
  const type = String(fields.t)
  if (type === 'meta') return { class: 'skipped', reason: 'metadata', events: [] }
  if (type === 'enc') return { class: 'skipped', reason: 'encrypted', events: [], encryptedReasoning: 1 }
  const kind = kinds[type]
  if (!kind) {
    return {
      class: 'unknown',
      events: [],
      unknown: { recordType: type, signature: Object.keys(fields).sort().join(',') },
    }
  }
  const texts = Array.isArray(fields.text) ? fields.text.map(String) : [String(fields.text ?? '')]
  const events = texts.map(
    (text): ReadEvent => ({
      kind,
      at: state.lastAt,
      sessionId: state.sessionId ?? 'unknown',
      cliVersion: '9.9.9',
      cwd: state.cwd,
      branch: typeof fields.b === 'string' ? fields.b : null,
      text,
      toolName: kind === 'tool_output' ? 'Bash' : null,
      callId: null,
      joinKey: typeof fields.j === 'string' ? fields.j : null,
    }),
  )
  return { class: 'captured', events }
}

/** A toy line; `cwd` defaults so that the first line of a file decides its scope. */
export function toyLine(fields: Record<string, unknown>): string {
  return `${JSON.stringify(fields)}\n`
}
