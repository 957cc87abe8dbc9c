import { randomBytes } from 'node:crypto'
import type { Actor } from '../../../src/identity/protocol/actor.ts'
import type { Event } from '../../../src/memory/protocol/event.ts'
import type { EventRecordDraft } from '../../../src/sync/protocol/record.ts'

/** A fresh project key, as a client generates one: 32 random bytes, base64url. */
export function newProjectKey(): string {
  return randomBytes(32).toString('base64url')
}

let projectCounter = 0
export function newProjectId(): string {
  projectCounter += 1
  return `prj_${randomBytes(6).toString('hex')}${String(projectCounter).padStart(4, '0')}`
}

export const alice: Actor = { human: 'alice@example.dev', vendor: 'claude', sessionId: 'session-alice-1' }
export const bob: Actor = { human: 'bob@example.dev', vendor: 'codex', sessionId: 'session-bob-1' }

/** An event record as a client pushes it; `id` doubles as the event id. */
export function eventDraft(id: string, actor: Actor = alice, text = `text of ${id}`): EventRecordDraft {
  const at = '2026-11-01T10:00:00.000Z'
  const payload: Event = {
    id,
    kind: 'assistant',
    vendor: actor.vendor ?? 'sangam',
    cliVersion: '2.1.0',
    sessionId: actor.sessionId ?? 'cli',
    author: actor.human,
    cwd: '/home/alice/widget',
    branch: 'main',
    at,
    sourcePath: '/home/alice/.claude/projects/widget/session.jsonl',
    byteOffset: 0,
    part: 0,
    toolName: null,
    callId: null,
    text,
    fullSize: text.length,
    shareable: true,
  }
  return { id, type: 'event', actor, at, payload }
}

export function eventDrafts(prefix: string, count: number, actor: Actor = alice): EventRecordDraft[] {
  return Array.from({ length: count }, (_, index) => eventDraft(`${prefix}-${index}`, actor))
}
