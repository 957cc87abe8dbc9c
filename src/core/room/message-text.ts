import { maxMessageChars } from '../../protocol/room/message.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { scrubSecrets } from '../secrets/scrubber.ts'

/**
 * The text a message may carry: trimmed, non-empty, at most 4,000 characters, and nothing the
 * secret scrubber would change. A message is read by every agent and machine of the team, so a
 * secret in it is refused (naming what kind, so the poster knows what to take out), never
 * rewritten behind the poster's back.
 */
export function checkMessageText(raw: string): string {
  const text = raw.trim()
  if (text.length === 0) throw new SangamError(ErrorCode.InvalidInput, 'a message needs some text')
  if (text.length > maxMessageChars) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `a message is at most ${maxMessageChars.toLocaleString('en-US')} characters; this one has ${text.length.toLocaleString('en-US')} (split it, or put the detail in a file and post its path)`,
    )
  }
  const scrubbed = scrubSecrets(text)
  if (scrubbed !== text) {
    const kinds = [...new Set([...scrubbed.matchAll(/\[REDACTED:([^\]]+)\]/g)].map((match) => match[1]))]
    const what = kinds.length === 0 ? 'a secret' : `a secret (${kinds.join(', ')})`
    throw new SangamError(
      ErrorCode.InvalidInput,
      `this message contains ${what}; the room is shared with every agent and machine of the team, so nothing was posted: take the secret out and post again`,
      { kinds },
    )
  }
  return text
}
