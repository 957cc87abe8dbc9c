import type { EventKind } from '../../shared/event-kinds.ts'
import type { ReadEvent, ReadOutcome, SkipReason } from '../transcript-reader.ts'

/**
 * What the Gemini CLI reader remembers between records. Gemini CLI appends a message again each
 * time it changes (tokens added, tool calls added, their results added; the last copy wins), and
 * a `$set: {messages}` checkpoint repeats the whole history: so the state keeps, per message id,
 * what was already captured from it, and the call ids whose call and output were captured. A copy
 * then yields only what is new in it, and every word is captured once.
 */
export interface GeminiState {
  readonly sessionId: string | null
  /** ms epoch of the last timestamp seen (events without one take it). */
  readonly lastAt: number
  /** Per message id: whether its text was captured, and how many of its thoughts. */
  readonly said: Readonly<Record<string, { readonly text: boolean; readonly thoughts: number }>>
  readonly calls: readonly string[]
  readonly outputs: readonly string[]
}

export const initialGeminiState: GeminiState = {
  sessionId: null,
  lastAt: 0,
  said: {},
  calls: [],
  outputs: [],
}

export type Step = { readonly state: GeminiState; readonly outcome: ReadOutcome }

export function skip(state: GeminiState, reason: SkipReason): Step {
  return { state, outcome: { class: 'skipped', reason, events: [] } }
}

export function settle(state: GeminiState, events: readonly ReadEvent[], otherwise: SkipReason): Step {
  return events.length > 0
    ? { state, outcome: { class: 'captured', events } }
    : { state, outcome: { class: 'skipped', reason: otherwise, events: [] } }
}

export function unknown(state: GeminiState, recordType: string, signature: string): Step {
  return { state, outcome: { class: 'unknown', events: [], unknown: { recordType, signature } } }
}

export function eventOf(
  state: GeminiState,
  kind: EventKind,
  text: string,
  at: number,
  tool: { readonly toolName?: string | null; readonly callId?: string | null } = {},
): ReadEvent {
  return {
    kind,
    at,
    sessionId: state.sessionId ?? '',
    cliVersion: null,
    cwd: null,
    branch: null,
    text,
    toolName: tool.toolName ?? null,
    callId: tool.callId ?? null,
    joinKey: null,
  }
}

export function serialiseGeminiState(state: GeminiState): string {
  return JSON.stringify(state)
}

/** A state written by `serialise`; anything unreadable restarts the reader's memory, never capture. */
export function restoreGeminiState(json: string): GeminiState {
  try {
    const value = JSON.parse(json) as Partial<GeminiState> | null
    if (typeof value !== 'object' || value === null) return initialGeminiState
    return {
      sessionId: typeof value.sessionId === 'string' ? value.sessionId : null,
      lastAt: typeof value.lastAt === 'number' ? value.lastAt : 0,
      said: typeof value.said === 'object' && value.said !== null ? value.said : {},
      calls: Array.isArray(value.calls) ? value.calls.filter((id) => typeof id === 'string') : [],
      outputs: Array.isArray(value.outputs) ? value.outputs.filter((id) => typeof id === 'string') : [],
    }
  } catch {
    return initialGeminiState
  }
}
