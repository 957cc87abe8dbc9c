import { isRecord } from '../../../shared/is-record.ts'

/**
 * What delivery and a Claude Code session's wake waiter say over the waiter's socket: one JSON
 * line each way. Delivery asks `{"wake": <session id>, "prompt": <text>}`; the waiter answers
 * `{"ok": true}` once the prompt is on its stderr (it then exits 2, and Claude Code starts the
 * turn), or `{"ok": false, "why": …}` when it will not (another session's, already woken, its
 * session gone). One request per connection; one wake per waiter.
 */
export interface WakeRequest {
  readonly sessionId: string
  readonly prompt: string
}

export type WakeReply = { readonly ok: true } | { readonly ok: false; readonly why: string }

/** A request longer than this is not read (a delivery prompt is a few kilobytes). */
export const maxWakeRequestBytes = 4 * 1024 * 1024

export function wakeRequestLine(request: WakeRequest): string {
  return `${JSON.stringify({ wake: request.sessionId, prompt: request.prompt })}\n`
}

export function parseWakeRequest(line: string): WakeRequest | null {
  const value = parseLine(line)
  if (value === null || typeof value.wake !== 'string' || typeof value.prompt !== 'string') return null
  return { sessionId: value.wake, prompt: value.prompt }
}

export function wakeReplyLine(reply: WakeReply): string {
  return `${JSON.stringify(reply)}\n`
}

export function parseWakeReply(line: string): WakeReply | null {
  const value = parseLine(line)
  if (value === null) return null
  if (value.ok === true) return { ok: true }
  if (value.ok === false) return { ok: false, why: typeof value.why === 'string' ? value.why : 'refused' }
  return null
}

function parseLine(line: string): Readonly<Record<string, unknown>> | null {
  try {
    const value: unknown = JSON.parse(line)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}
