import type { SendResult } from './send-to-session.ts'

/** One line saying what became of a `send` (the CLI's text and `room_send`'s): what waits, until when, and who carries it. */
export function describeSend(sent: SendResult): string {
  const where = `${sent.session.vendor} session ${sent.session.id}`
  switch (sent.outcome) {
    case 'started':
      return `turn ${sent.turn?.id} started in ${where} (${sent.channel}); output: ${sent.turn?.logFile ?? 'in the session'}`
    case 'pasted':
      return `pasted into ${where}'s tmux pane (Enter not pressed)`
    case 'pending': {
      const then = sent.channel === null ? '' : `, then ${sent.channel}`
      if (sent.reason === 'cooldown' && sent.retryAt !== null)
        return `posted ${sent.messageId}; ${where} had a turn within room.delivery-cooldown: it waits until ${sent.retryAt}${then}, carried by sangam up (or sangam deliveries --deliver) once the cooldown passes`
      if (sent.reason === 'at-question')
        return `posted ${sent.messageId}; ${where} waits at a question for a person (sangam sessions says how to answer it): it gets the message when that turn ends${then}`
      return `posted ${sent.messageId}; ${where} gets it later (${sent.reason}${then})`
    }
    case 'forwarded':
      return `posted ${sent.messageId} for ${where}: ${sent.reason}`
    case 'refused':
    case 'failed':
      return `not delivered to ${where}: ${sent.outcome}, ${sent.reason}`
  }
}
