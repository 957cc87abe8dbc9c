import type { ServerResponse } from 'node:http'
import { headerValue, sendEvent, sendJson } from './fake-model-server.ts'
import {
  type ScriptedModelServer,
  startScriptedModelServer,
  type ToolOrTextStep,
} from './scripted-model-server.ts'
import { historyIn, locate, type TurnPosition } from './user-turns.ts'

/**
 * A fake Anthropic Messages API for the real Claude Code CLI: `POST /v1/messages` answered as a
 * stream of server-sent events from a script. Claude resends the whole conversation every turn, so
 * the server finds the request's user turn (a user message with text of its own, not a tool
 * result; `<system-reminder>` blocks are the CLI's, not the prompt) and answers with that turn's
 * step whose index is the number of assistant messages since that prompt: each prompt of a
 * session (the first, a resume, a Stop hook's hand-over) walks its script from the start.
 */
export type ClaudeStep = ToolOrTextStep

export type FakeAnthropic = ScriptedModelServer<ClaudeStep>

export function startFakeAnthropic(): Promise<FakeAnthropic> {
  return startScriptedModelServer<ClaudeStep>(
    { text: 'Done.' },
    ({ method, path, body, headers }, response, player) => {
      if (method === 'POST' && path.endsWith('/v1/messages/count_tokens')) {
        sendJson(response, 200, { input_tokens: 100 })
        return { kind: 'other' }
      }
      if (method !== 'POST' || !path.endsWith('/v1/messages')) {
        sendJson(response, 404, {
          type: 'error',
          error: { type: 'not_found_error', message: `no route ${path}` },
        })
        return { kind: 'other' }
      }
      if (!isMainLoop(body)) {
        stream(response, { text: 'Scripted session' }, player.id)
        return { kind: 'side' }
      }
      const turn = positionOf(body, headerValue(headers, 'x-claude-code-session-id'))
      stream(response, player.stepAt(turn), player.id)
      return { kind: 'main', turn }
    },
  )
}

interface Message {
  readonly role?: unknown
  readonly content?: unknown
}

function positionOf(body: unknown, sessionId: string | null): TurnPosition {
  return locate(
    historyIn<Message>(body, 'messages'),
    sessionId,
    (message) => message.role === 'user' && promptOf(message) !== null,
    (message) => promptOf(message) ?? '',
    (message) => message.role === 'assistant',
  )
}

/**
 * A user message's own text, or null for a tool result or a message only of the CLI's reminders.
 * A Stop hook's `decision: block` comes back (Claude Code 2.1.332) as a user message of its own,
 * string content `<system-reminder>…Stop hook feedback:\n<reason></system-reminder>`: that is a
 * user turn (the hand-over), in either form; so is an asyncRewake hook's wake (`isContinuation`).
 */
function promptOf(message: Message): string | null {
  if (typeof message.content === 'string') return message.content
  if (!Array.isArray(message.content)) return null
  const blocks = message.content as { type?: unknown; text?: unknown }[]
  if (blocks.some((block) => block.type === 'tool_result')) return null
  const texts = blocks
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .filter((text) => !text.trimStart().startsWith('<system-reminder>') || isContinuation(text))
  return texts.length === 0 ? null : texts.join('\n')
}

/**
 * The CLI's reminders that start or extend a turn: a Stop hook's block (`Stop hook feedback:`) and
 * an asyncRewake hook's wake of an idle session, which 2.1.332 sends as a reminder holding a
 * `<task-notification>` (summary "Stop hook feedback") and the hook's stderr.
 */
function isContinuation(text: string): boolean {
  return text.includes('Stop hook feedback:') || text.includes('<task-notification>')
}

/** A turn of the agent loop offers the file and shell tools; title and probe requests do not. */
function isMainLoop(body: unknown): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools
  if (!Array.isArray(tools)) return false
  return tools.some((tool) => ['Bash', 'Write', 'Edit'].includes((tool as { name?: unknown }).name as string))
}

function stream(response: ServerResponse, step: ClaudeStep, id: (prefix: string) => string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const usage = {
    input_tokens: 100,
    output_tokens: 1,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  }
  sendEvent(response, 'message_start', {
    type: 'message_start',
    message: {
      id: id('msg'),
      type: 'message',
      role: 'assistant',
      model: 'claude-fake',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  })
  if ('tool' in step) {
    sendEvent(response, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: id('toolu'), name: step.tool, input: {} },
    })
    const json = JSON.stringify(step.input)
    for (const piece of halves(json)) {
      sendEvent(response, 'content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: piece },
      })
    }
  } else {
    sendEvent(response, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    })
    for (const piece of halves(step.text)) {
      sendEvent(response, 'content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: piece },
      })
    }
  }
  sendEvent(response, 'content_block_stop', { type: 'content_block_stop', index: 0 })
  sendEvent(response, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'tool' in step ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 20 },
  })
  sendEvent(response, 'message_stop', { type: 'message_stop' })
  response.end()
}

/** Deltas arrive in pieces in real streams; two pieces exercise the CLI's accumulation. */
function halves(text: string): string[] {
  const half = Math.ceil(text.length / 2)
  return [text.slice(0, half), text.slice(half)].filter((piece) => piece !== '')
}
