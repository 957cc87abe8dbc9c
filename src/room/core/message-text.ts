import { refuseSecret } from '../../secrets/core/free-text-rule.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { maxMessageChars } from '../protocol/message-limits.ts'

/**
 * The text a message may carry: trimmed, non-empty, at most 4,000 characters, and nothing the
 * secret scrubber would change. A message is read by every agent and machine of the team, so a
 * secret in it is refused (naming what kind, so the poster knows what to take out), never
 * rewritten behind the poster's back: the free-text rule's `prose` (secrets/core/free-text-rule.ts).
 * `field` names it in that refusal (a thread's title and reason are checked here too).
 */
export function checkMessageText(raw: string, field = 'the message text'): string {
  const text = raw.trim()
  if (text.length === 0) throw new SangamError(ErrorCode.InvalidInput, 'a message needs some text')
  if (text.length > maxMessageChars) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `a message is at most ${maxMessageChars.toLocaleString('en-US')} characters; this one has ${text.length.toLocaleString('en-US')} (split it, or put the detail in a file and post its path)`,
    )
  }
  return refuseSecret(field, text)
}
