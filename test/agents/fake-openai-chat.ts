import type { ServerResponse } from 'node:http'
import { headerValue, sendJson } from './fake-model-server.ts'
import {
  type ScriptedModelServer,
  startScriptedModelServer,
  type ToolOrTextStep,
} from './scripted-model-server.ts'
import { historyIn, locate, type TurnPosition } from './user-turns.ts'

/**
 * A fake OpenAI-compatible Chat Completions API for the real opencode CLI (a custom provider whose
 * `options.baseURL` points here): `POST /v1/chat/completions` answered as a stream of `data:`
 * chunks from a script. opencode resends the whole conversation every turn, so the server finds
 * the request's user turn (the last `user` message) and answers with that turn's step whose index
 * is the number of assistant tool-call messages since it. Requests that offer no tools (the
 * session title opencode asks for) are side requests and get plain text.
 */
export type ChatStep = ToolOrTextStep

export type FakeOpenAiChat = ScriptedModelServer<ChatStep>

export function startFakeOpenAiChat(): Promise<FakeOpenAiChat> {
  return startScriptedModelServer<ChatStep>(
    { text: 'Done.' },
    ({ method, path, body, headers }, response, player) => {
      if (method === 'GET' && path.endsWith('/models')) {
        sendJson(response, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }] })
        return { kind: 'other' }
      }
      if (method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(response, 404, { error: { message: `no route ${path}`, type: 'not_found' } })
        return { kind: 'other' }
      }
      if (!isMainLoop(body)) {
        stream(response, { text: 'Scripted session' }, player.id)
        return { kind: 'side' }
      }
      const turn = positionOf(
        body,
        headerValue(headers, 'x-session-id') ?? headerValue(headers, 'session_id'),
      )
      stream(response, player.stepAt(turn), player.id)
      return { kind: 'main', turn }
    },
  )
}

interface Message {
  readonly role?: unknown
  readonly content?: unknown
  readonly tool_calls?: unknown
}

function positionOf(body: unknown, sessionId: string | null): TurnPosition {
  return locate(
    historyIn<Message>(body, 'messages'),
    sessionId,
    (message) => message.role === 'user',
    (message) => textOf(message.content),
    (message) => message.role === 'assistant' && Array.isArray(message.tool_calls),
  )
}

/** A message's text: a string, or the text parts of a content list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return (content as { type?: unknown; text?: unknown }[])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n')
}

/** Turns of the agent loop offer tools; the title request offers none. */
function isMainLoop(body: unknown): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools
  return Array.isArray(tools) && tools.length > 0
}

function stream(response: ServerResponse, step: ChatStep, id: (prefix: string) => string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const base = { id: id('chatcmpl'), object: 'chat.completion.chunk', created: 0, model: 'fake-model' }
  const send = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}): void => {
    response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...extra })}\n\n`)
  }
  let finish: string
  if ('tool' in step) {
    const args = JSON.stringify(step.input)
    const split = Math.floor(args.length / 2)
    send({
      delta: {
        role: 'assistant',
        tool_calls: [
          { index: 0, id: id('call'), type: 'function', function: { name: step.tool, arguments: '' } },
        ],
      },
      finish_reason: null,
    })
    for (const chunk of [args.slice(0, split), args.slice(split)]) {
      send({ delta: { tool_calls: [{ index: 0, function: { arguments: chunk } }] }, finish_reason: null })
    }
    finish = 'tool_calls'
  } else {
    send({ delta: { role: 'assistant', content: '' }, finish_reason: null })
    send({ delta: { content: step.text }, finish_reason: null })
    finish = 'stop'
  }
  send(
    { delta: {}, finish_reason: finish },
    { usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } },
  )
  response.write('data: [DONE]\n\n')
  response.end()
}
