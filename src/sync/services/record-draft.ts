import type { Actor } from '../../identity/protocol/actor.ts'
import type { Event } from '../../memory/protocol/event.ts'
import { eventRecordType } from '../../memory/protocol/records/event.ts'
import { cliSession } from '../../memory/services/note.ts'
import { type StoredEvent, wireEventOf } from '../../memory/store/event-table.ts'
import { scrubSecrets } from '../../secrets/core/scrubber.ts'
import { redactAll, redactForWire } from '../../secrets/core/wire-fields.ts'
import type { EventRecordDraft } from '../protocol/record.ts'

/** A record ready to push, with its size on the wire. */
export interface SizedDraft {
  readonly draft: EventRecordDraft
  readonly bytes: number
}

/**
 * The record that shares one local event. Its id is the event's id, so pushing it twice can never
 * make two records. Every field was scrubbed at capture (a note's text was refused if it held a
 * secret); every free-text field is scrubbed again here (secrets/core/wire-fields.ts), as a second
 * line of defence, because what leaves the machine cannot be taken back. A record larger than
 * `maxBytes` (a pasted log in a prompt) has its text cut to fit; `fullSize` keeps the original
 * length.
 */
export function eventDraft(event: StoredEvent, maxBytes: number): SizedDraft {
  const payload: Event = {
    ...wireEventOf(event),
    // Only shared kinds reach the outbox; tool output only when the project opted in.
    shareable: true,
  }
  const draft: EventRecordDraft = redactForWire(
    'event',
    eventRecordType.build({ id: event.id, actor: actorOf(event), at: event.at, payload }),
    redactAll,
  ).value
  const bytes = byteSize(draft)
  return bytes <= maxBytes ? { draft, bytes } : fitted(draft, bytes, maxBytes)
}

/** Who the event belongs to: the session for captured events; the human (and session, if any) for notes. */
function actorOf(event: StoredEvent): Actor {
  if (event.vendor === 'sangam') {
    return {
      human: event.author,
      vendor: null,
      sessionId: event.sessionId === cliSession ? null : event.sessionId,
    }
  }
  return { human: event.author, vendor: event.vendor, sessionId: event.sessionId }
}

function fitted(draft: EventRecordDraft, bytes: number, maxBytes: number): SizedDraft {
  let text = draft.payload.text
  let size = bytes
  while (size > maxBytes && text.length > 0) {
    const textBytes = Buffer.byteLength(JSON.stringify(text))
    const keep = Math.max(0, Math.floor((text.length * (textBytes - (size - maxBytes))) / textBytes) - 16)
    // A cut can leave what looks like a secret on its own (a long token's last 40 characters).
    text = scrubSecrets(cutAt(text, keep))
    const next = { ...draft, payload: { ...draft.payload, text } }
    size = byteSize(next)
    if (size <= maxBytes) return { draft: next, bytes: size }
  }
  const empty = { ...draft, payload: { ...draft.payload, text: '' } }
  return { draft: empty, bytes: byteSize(empty) }
}

/** Cuts before `length` characters without splitting a surrogate pair. */
function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1)
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length)
}

function byteSize(draft: EventRecordDraft): number {
  return Buffer.byteLength(JSON.stringify(draft))
}
