import type { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { Change, ChangeFeed } from './change-feed.ts'

/** A comment this often keeps a quiet stream open through the browser and any proxy. */
export const keepAliveMs = 15_000
/** What the browser waits before it reconnects a dropped stream. */
const retryMs = 1000

/**
 * `GET /api/events`: the change feed as server-sent events. The resume point is the browser's
 * `Last-Event-ID` (sent by itself on a reconnect) or `?after=`; the catch-up and the live changes
 * are written through one queue, in cursor order, so none is skipped or sent twice.
 */
export function eventStreamRoute(app: Hono, feed: ChangeFeed): void {
  app.get('/api/events', (c) => {
    const after = resumePoint(c.req.header('last-event-id') ?? c.req.query('after'))
    return streamSSE(c, async (stream) => {
      const queue: Change[] = []
      let wake: (() => void) | null = null
      const { catchup, unsubscribe } = feed.subscribe(after, (change) => {
        queue.push(change)
        wake?.()
      })
      stream.onAbort(() => {
        unsubscribe()
        wake?.()
      })
      try {
        if (catchup.kind === 'replay') queue.unshift(...catchup.changes)
        else
          await stream.writeSSE({
            event: catchup.kind,
            id: String(catchup.cursor),
            data: JSON.stringify({ cursor: catchup.cursor }),
            retry: retryMs,
          })
        while (!stream.aborted) {
          const change = queue.shift()
          if (change !== undefined) {
            await stream.writeSSE({
              event: 'change',
              id: String(change.cursor),
              data: JSON.stringify({ topics: change.topics, cursor: change.cursor }),
            })
            continue
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, keepAliveMs)
            wake = () => {
              clearTimeout(timer)
              resolve()
            }
          })
          wake = null
          if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n')
        }
      } finally {
        unsubscribe()
      }
    })
  })
}

/** A cursor the client last saw, or null for a first connection (an unreadable one counts as none). */
function resumePoint(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return null
  return Number(value.trim())
}
