import type { Hono } from 'hono'
import { z } from 'zod'
import { projectBoard } from '../project/services/project-board.ts'
import { maxMessageChars, messageKindSchema } from '../room/protocol/message.ts'
import { withPostDefaults } from '../room/protocol/post-input.ts'
import { maxReadLimit, withReadDefaults } from '../room/protocol/read-input.ts'
import { threadAudienceSchema, threadLifetimeSchema } from '../room/protocol/thread.ts'
import { withThreadOpenDefaults } from '../room/protocol/thread-open-input.ts'
import { collisionsOnRead } from '../room/services/collisions-on-read.ts'
import { messageView, threadView } from '../room/services/message-view.ts'
import { openRoom } from '../room/services/open-room.ts'
import { post } from '../room/services/post.ts'
import { projectTargetsInput } from '../room/services/project-targets.ts'
import { readMessages } from '../room/services/read.ts'
import type { RoomScope } from '../room/services/room-scope.ts'
import { loadTargets } from '../room/services/targets.ts'
import { closeThread, listThreads, openThread } from '../room/services/threads.ts'
import { threadMessages } from '../room/store/message-table.ts'
import { parseBody, parseQuery } from './request-input.ts'
import type { UiContext } from './ui-context.ts'

const limitParam = z
  .string()
  .regex(/^\d{1,4}$/, 'a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1).max(maxReadLimit))

const messagesQuery = z.object({
  after: z.string().min(1).optional(),
  thread: z.string().min(1).optional(),
  limit: limitParam.optional(),
})

const postBody = z.strictObject({
  text: z.string().max(maxMessageChars * 2),
  thread: z.string().min(1).nullish(),
  to: z.array(z.string().min(1)).max(50).optional(),
  kind: messageKindSchema.optional(),
  topic: z.string().min(1).max(200).nullish(),
})

const threadBody = z.strictObject({
  title: z.string(),
  reason: z.string().nullish(),
  audience: threadAudienceSchema.optional(),
  lifetime: threadLifetimeSchema.optional(),
  participants: z.array(z.string().min(1)).max(50).optional(),
  paths: z.array(z.string().min(1)).max(200).optional(),
  text: z
    .string()
    .max(maxMessageChars * 2)
    .optional(),
})

const closeBody = z.strictObject({
  text: z
    .string()
    .max(maxMessageChars * 2)
    .optional(),
})

/** The room: board, targets, messages (read and post), threads (list, open, close). */
export function roomRoutes(app: Hono, ctx: UiContext): void {
  // A person at a browser: the server's own environment says nothing of who types (D270).
  const room = (): RoomScope => openRoom(ctx.project, ctx.actor, ctx.patternRoot, ctx.random, 'human')

  app.get('/api/board', async (c) =>
    c.json(
      await projectBoard(ctx.project, {
        log: ctx.log,
        random: ctx.random,
        pid: process.pid,
      }),
    ),
  )

  app.get('/api/targets', async (c) =>
    c.json(await loadTargets(ctx.project.db, projectTargetsInput(ctx.project))),
  )

  app.get('/api/messages', (c) => {
    const query = parseQuery(c, messagesQuery)
    if (!query.ok) return query.response
    const { thread, ...given } = query.value
    const read = withReadDefaults(given)
    if (thread === undefined) return c.json({ messages: readMessages(ctx.project.db, read).map(messageView) })
    // A thread's messages in the room's order, after `after` when it is one of them.
    const { after, limit } = read
    const all = threadMessages(ctx.project.db, thread, maxReadLimit)
    const from = after === null ? 0 : all.findIndex((message) => message.id === after) + 1
    return c.json({ messages: all.slice(from, from + limit).map(messageView) })
  })

  app.post('/api/messages', async (c) => {
    const body = await parseBody(c, postBody)
    if (!body.ok) return body.response
    const { text, thread, to, kind, topic } = body.value
    const message = post(room(), withPostDefaults({ text, to, kind, topic, threadId: thread }))
    return c.json({ message: messageView(message) })
  })

  app.get('/api/threads', async (c) => {
    const all = c.req.query('all')
    const collisions = await collisionsOnRead(ctx.project, { random: ctx.random })
    return c.json({
      threads: listThreads(ctx.project.db, { all: all === '1' || all === 'true' }).map(threadView),
      collisions,
    })
  })

  app.post('/api/threads', async (c) => {
    const body = await parseBody(c, threadBody)
    if (!body.ok) return body.response
    const input = body.value
    const scope = room()
    const thread = openThread(scope, withThreadOpenDefaults(input))
    if (input.text !== undefined && input.text.trim() !== '')
      post(scope, withPostDefaults({ text: input.text, threadId: thread.id }))
    return c.json({ thread: threadView(thread) })
  })

  app.post('/api/threads/:id/close', async (c) => {
    const body = await parseBody(c, closeBody)
    if (!body.ok) return body.response
    const id = c.req.param('id')
    const scope = room()
    // The last word goes in before the thread closes: a closed thread takes no more posts.
    if (body.value.text !== undefined && body.value.text.trim() !== '')
      post(scope, withPostDefaults({ text: body.value.text, threadId: id }))
    return c.json({ thread: threadView(closeThread(scope, id)) })
  })
}
