import { guardWrite } from '../../secrets/core/wire-fields.ts'
import type { Handoff, RoomMessage } from '../protocol/message.ts'
import { post } from './post.ts'
import type { RoomScope } from './room-scope.ts'

export interface HandoffInput {
  readonly text: string
  readonly to: readonly string[]
  readonly topic: string | null
  readonly threadId: string | null
  readonly handoff: Handoff
}

/**
 * Hands work over: a message of kind `handoff` carrying the structured fields, which are also
 * written into its text (a reader of the text alone sees where the work stands), addressed to the
 * next owner as well as to whom it names.
 */
export function handoff(scope: RoomScope, input: HandoffInput): RoomMessage {
  // Checked before they are written into the text, so a refusal names the field, not the text.
  const { handoff } = guardWrite('room.message', { payload: { handoff: input.handoff } }).payload
  const lines = [
    input.text.trim(),
    '',
    'Handoff:',
    `- source: ${handoff.sourceSha ?? scope.poster.git.head ?? 'no commit'}`,
    `- paths: ${handoff.paths.length === 0 ? 'none named' : handoff.paths.join(', ')}`,
    `- proof: ${handoff.proof ?? 'none given'}`,
    `- blocker: ${handoff.blocker ?? 'none'}`,
    `- next owner: ${handoff.nextOwner ?? 'anyone'}`,
  ]
  const fields: Handoff = { ...handoff, sourceSha: handoff.sourceSha ?? scope.poster.git.head }
  return post(scope, {
    text: lines.join('\n'),
    to: [...input.to, ...(handoff.nextOwner === null ? [] : [handoff.nextOwner])],
    kind: 'handoff',
    topic: input.topic,
    threadId: input.threadId,
    handoff: fields,
  })
}
