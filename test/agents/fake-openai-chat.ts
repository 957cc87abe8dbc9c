import type { ServerResponse } from 'node:http'
import { type FakeModelServer, headerValue, startFakeModelServer } from './fake-model-server.ts'
import { locate, perTurn, type Script, stepFor, type TurnPosition } from './user-turns.ts'

/**
 * A fake OpenAI-compatible Chat Completions API for the real opencode CLI (a custom provider whose
 * `options.baseURL` points here): `POST /v1/chat/completions` answered as a stream of `data:`
 * chunks from a script. opencode resends the whole conversation every turn, so the server finds
 * the request's user turn (the last `user` message) and answers with that turn's step whose index
 * is the number of assistant tool-call messages since it. Requests that offer no tools (the
 * session title opencode asks for) are side requests and get plain text.
 */
export type ChatStep =
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>> }
  | { readonly text: string }

export interface FakeOpenAiChat extends FakeModelServer {
  /** Sets the replies for the turns that follow: one list for every turn, or a choice per turn. */
  script(script: Script<ChatStep>): void
  /** User turn `n` of a session walks `turns[n]` (the last list for every later turn). */
  scriptTurns(turns: readonly (readonly ChatStep[])[]): void
}

export async function startFakeOpenAiChat(): Promise<FakeOpenAiChat> {
  let current: Script<ChatStep> = [{ text: 'Done.' }]
  let counter = 0
  const id = (prefix: string): string => `${prefix}_fake${(counter++).toString(36).padStart(6, '0')}`
  const server = await startFakeModelServer(({ method, path, body, headers }, response) => {
    if (method === 'GET' && path.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model' }] }))
      return { kind: 'other' }
    }
    if (method !== 'POST' || !path.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: `no route ${path}`, type: 'not_found' } }))
      return { kind: 'other' }
    }
    if (!isMainLoop(body)) {
      stream(response, { text: 'Scripted session' }, id)
      return { kind: 'side' }
    }
    const turn = positionOf(body, headerValue(headers, 'x-session-id') ?? headerValue(headers, 'session_id'))
    stream(response, stepFor(current, turn, { text: 'Done.' }), id)
    return { kind: 'main', turn }
  })
  return {
    ...server,
    script(next) {
      current = next
    },
    scriptTurns(turns) {
      current = perTurn(turns)
    },
  }
}

interface Message {
  readonly role?: unknown
  readonly content?: unknown
  readonly tool_calls?: unknown
}

function positionOf(body: unknown, sessionId: string | null): TurnPosition {
  const messages = (body as { messages?: unknown } | null)?.messages
  const list = Array.isArray(messages) ? (messages as Message[]) : []
  return locate(
    list,
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
