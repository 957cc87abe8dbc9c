import { z } from 'zod'
import { projectBoardViewSchema } from '../project/protocol/project-board-view.ts'
import { projectBoard, projectBoardText } from '../project/services/project-board.ts'
import { collisionsViewSchema } from '../room/protocol/board-view.ts'
import { maxMessageChars, messageKindSchema } from '../room/protocol/message.ts'
import {
  type MessageView,
  messageViewSchema,
  type ThreadView,
  threadViewSchema,
} from '../room/protocol/message-view.ts'
import { withPostDefaults } from '../room/protocol/post-input.ts'
import { defaultReadLimit, maxReadLimit, withReadDefaults } from '../room/protocol/read-input.ts'
import { threadAudienceSchema, threadLifetimeSchema } from '../room/protocol/thread.ts'
import {
  defaultThreadAudience,
  defaultThreadLifetime,
  maxThreadTitleChars,
  withThreadOpenDefaults,
} from '../room/protocol/thread-open-input.ts'
import { collisionsLines, collisionsOnRead } from '../room/services/collisions-on-read.ts'
import { handoff } from '../room/services/handoff.ts'
import { messageView, threadView } from '../room/services/message-view.ts'
import { openRoom } from '../room/services/open-room.ts'
import { post } from '../room/services/post.ts'
import { readMessages } from '../room/services/read.ts'
import { closeThread, listThreads, openThread } from '../room/services/threads.ts'
import { systemRandom } from '../shared/random.ts'
import { oneLine } from '../shared/terminal-text.ts'
import { type McpContext, onlyReads } from './mcp-context.ts'
import { type AnyMcpTool, defineTool } from './mcp-tool.ts'

/**
 * The room's tools: the same use cases as `post`, `read`, `threads`, `thread-open`,
 * `thread-close` and `board`, acting as the calling agent session (its handle is the sender).
 * Each answers with the shape its CLI command prints with `--json`.
 */

const recipientsInput = z
  .array(z.string().min(1))
  .optional()
  .describe('who it is for: @handle (an agent session), @human, #worktree; default the whole room')

function room(context: McpContext) {
  // An agent's channel, whatever the client says (D270).
  return openRoom(context.project(), context.actor(), context.projectDir, systemRandom, 'agent')
}

function describeMessage(message: MessageView): string {
  const to = message.recipients.length === 0 ? '' : ` → ${oneLine(message.recipients.join(' '))}`
  const where = message.threadId === null ? '' : ` [${oneLine(message.threadId)}]`
  return `${oneLine(message.id)} ${oneLine(message.sender)}${to}${where}: ${message.text}`
}

function describeThread(thread: ThreadView): string {
  return `${oneLine(thread.id)} [${thread.status}, ${thread.audience}] ${oneLine(thread.title)} — ${oneLine(thread.participants.join(' '))}`
}

const postTool = defineTool({
  name: 'room_post',
  title: 'Post to the room',
  description:
    "Post a message to the project's room, read by every agent and human on the project (all worktrees and machines). " +
    'Address it with `to` and/or @handle / #worktree mentions in the text (mentions inside `code` are ignored); an ' +
    'unknown name is refused with close matches. Ask for help, announce what you take (kind allocation), or post ' +
    'into a thread with threadId. Never put secrets in it: a message containing one is refused.',
  input: {
    text: z.string().min(1).max(maxMessageChars).describe('the message'),
    to: recipientsInput,
    // A handoff has its own tool, with its fields.
    kind: messageKindSchema.exclude(['handoff']).optional().describe('message (default) or allocation'),
    topic: z.string().min(1).optional().describe('a topic word'),
    threadId: z.string().min(1).optional().describe('post into this open thread'),
  },
  output: { message: messageViewSchema },
  readOnly: false,
  run(input, context) {
    const message = messageView(post(room(context), withPostDefaults(input)))
    return { structured: { message }, text: `posted ${describeMessage(message)}` }
  },
})

const readTool = defineTool({
  name: 'room_read',
  title: 'Read the room',
  description:
    "Read the room's messages in its one order (the same on every machine): the latest `limit`, or those after a " +
    'message id you already saw.',
  input: {
    after: z.string().min(1).optional().describe('a message id: only what came after it'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(maxReadLimit)
      .optional()
      .describe(`at most this many (default ${defaultReadLimit})`),
  },
  output: { messages: z.array(messageViewSchema) },
  readOnly: true,
  run(input, context) {
    const messages = readMessages(context.project(onlyReads).db, withReadDefaults(input)).map(messageView)
    return {
      structured: { messages },
      text: messages.length === 0 ? 'no messages' : messages.map(describeMessage).join('\n'),
    }
  },
})

const handoffTool = defineTool({
  name: 'room_handoff',
  title: 'Hand work over',
  description:
    'Hand your work to the next owner: where it stands (the commit, default your HEAD), the paths it touched, what ' +
    'proves it works, what blocks it, and who takes it next (@handle, @human or #worktree). Posted as a handoff ' +
    'message addressed to the next owner, with the fields written into its text.',
  input: {
    text: z.string().min(1).max(maxMessageChars).describe('what was done and what is left'),
    sourceSha: z.string().min(1).optional().describe('the commit the work is at (default your HEAD)'),
    paths: z.array(z.string().min(1)).optional().describe('repository paths the work touched'),
    proof: z.string().min(1).optional().describe('what shows it works (a test command, a result)'),
    blocker: z.string().min(1).optional().describe('what stops it, if anything'),
    nextOwner: z.string().min(1).optional().describe('who takes it next: @handle, @human or #worktree'),
    to: recipientsInput,
    threadId: z.string().min(1).optional().describe('post it into this open thread'),
  },
  output: { message: messageViewSchema },
  readOnly: false,
  run(input, context) {
    const message = messageView(
      handoff(room(context), {
        text: input.text,
        to: input.to ?? [],
        topic: null,
        threadId: input.threadId ?? null,
        handoff: {
          sourceSha: input.sourceSha ?? null,
          paths: input.paths ?? [],
          proof: input.proof ?? null,
          blocker: input.blocker ?? null,
          nextOwner: input.nextOwner ?? null,
        },
      }),
    )
    return { structured: { message }, text: `handed over: ${describeMessage(message)}` }
  },
})

const threadsTool = defineTool({
  name: 'room_threads',
  title: 'List threads',
  description: "The room's open threads (all: closed ones too), most recently changed first.",
  input: { all: z.boolean().optional().describe('closed threads too') },
  output: { threads: z.array(threadViewSchema), collisions: collisionsViewSchema },
  readOnly: true,
  async run(input, context) {
    const project = context.project(onlyReads)
    const collisions = await collisionsOnRead(project, { random: systemRandom })
    const threads = listThreads(project.db, { all: input.all === true }).map(threadView)
    const lines = threads.length === 0 ? ['no threads'] : threads.map(describeThread)
    return {
      structured: { threads, collisions },
      text: [...lines, ...collisionsLines(collisions)].join('\n'),
    }
  },
})

const threadOpenTool = defineTool({
  name: 'room_thread_open',
  title: 'Open a thread',
  description:
    'Open a thread for one question or piece of work. audience human-loop means it waits on a human (it adds @human ' +
    'and shows you blocked until it is closed); participants are @handle, @human or #worktree.',
  input: {
    title: z.string().min(1).max(maxThreadTitleChars).describe('what it is about'),
    reason: z.string().min(1).optional().describe('why it is open'),
    audience: threadAudienceSchema.optional().describe(`${defaultThreadAudience} (default) or human-loop`),
    lifetime: threadLifetimeSchema.optional().describe(`${defaultThreadLifetime} (default) or temporary`),
    participants: z.array(z.string().min(1)).optional().describe('who takes part besides you'),
    paths: z.array(z.string().min(1)).optional().describe('repository paths it is about'),
  },
  output: { thread: threadViewSchema },
  readOnly: false,
  run(input, context) {
    const thread = threadView(openThread(room(context), withThreadOpenDefaults(input)))
    return { structured: { thread }, text: `opened ${describeThread(thread)}` }
  },
})

const threadCloseTool = defineTool({
  name: 'room_thread_close',
  title: 'Close a thread',
  description: 'Close a thread when its question is answered or its work done; it then takes no more posts.',
  input: { id: z.string().min(1).describe('the thread id') },
  output: { thread: threadViewSchema },
  readOnly: false,
  run(input, context) {
    const thread = threadView(closeThread(room(context), input.id))
    return { structured: { thread }, text: `closed ${describeThread(thread)}` }
  },
})

const boardTool = defineTool({
  name: 'room_board',
  title: 'The board',
  description:
    "The room's board, derived from the threads now: backlog (nobody working on it), doing (an agent in it active, " +
    'or a post in it within room.doing-hours), ' +
    'blocked (waiting on a human), done (closed); then every lane (state, owner, agent, commits behind main, ' +
    'dirty, active task, next step) and who holds the integration lock, since when, and whether it is stale.',
  input: {},
  output: projectBoardViewSchema.shape,
  readOnly: true,
  async run(_input, context) {
    const board = await projectBoard(context.project(onlyReads), {
      log: context.log,
      random: systemRandom,
      pid: process.pid,
    })
    return {
      structured: board,
      text: projectBoardText(board, context.clock.now(), 100),
    }
  },
})

/** The room's tools: `room_post`, `room_read`, `room_handoff`, `room_threads`, `room_thread_open`, `room_thread_close`, `room_board`. */
export const roomTools: readonly AnyMcpTool[] = [
  postTool,
  readTool,
  handoffTool,
  threadsTool,
  threadOpenTool,
  threadCloseTool,
  boardTool,
]
