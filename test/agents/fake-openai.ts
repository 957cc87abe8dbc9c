import type { ServerResponse } from 'node:http'
import { headerValue, sendEvent, sendJson } from './fake-model-server.ts'
import { type ScriptedModelServer, startScriptedModelServer } from './scripted-model-server.ts'
import { historyIn, locate, type TurnPosition } from './user-turns.ts'

/**
 * A fake OpenAI Responses API for the real Codex CLI: `POST /v1/responses` answered as a stream of
 * server-sent events from a script. Codex resends the whole history in `input` every turn, so the
 * server finds the request's user turn (the last `user` message that is a prompt, not the
 * environment context or instructions Codex adds in that role) and answers with that turn's step
 * whose index is the number of tool calls since it: each prompt of a thread (the first, a resume,
 * a wake in place, a queued message, a Stop hook's hand-over) walks its script from the start.
 */
export type CodexStep = { readonly patch: string } | { readonly shell: string } | { readonly text: string }

export type FakeOpenAi = ScriptedModelServer<CodexStep>

const callTypes = new Set(['function_call', 'custom_tool_call', 'local_shell_call'])
const shellTools = new Set(['exec_command', 'shell', 'shell_command'])

export function startFakeOpenAi(): Promise<FakeOpenAi> {
  return startScriptedModelServer<CodexStep>(
    { text: 'Done.' },
    ({ method, path, body, headers }, response, player) => {
      if (method === 'GET' && path.endsWith('/models')) {
        sendJson(response, 200, { object: 'list', data: [] })
        return { kind: 'other' }
      }
      if (method !== 'POST' || !path.endsWith('/responses')) {
        sendJson(response, 404, { error: { message: `no route ${path}`, type: 'not_found' } })
        return { kind: 'other' }
      }
      if (!isMainLoop(body)) {
        stream(response, itemFor({ text: 'Scripted session' }, player.id), player.id)
        return { kind: 'side' }
      }
      const sessionId = headerValue(headers, 'thread-id') ?? headerValue(headers, 'session-id')
      const turn = positionOf(body, sessionId)
      stream(response, itemFor(player.stepAt(turn), player.id), player.id)
      return { kind: 'main', turn }
    },
  )
}

interface InputItem {
  readonly type?: unknown
  readonly role?: unknown
  readonly content?: unknown
}

function positionOf(body: unknown, sessionId: string | null): TurnPosition {
  return locate(
    historyIn<InputItem>(body, 'input'),
    sessionId,
    (item) => promptOf(item) !== null,
    (item) => promptOf(item) ?? '',
    (item) => callTypes.has(item.type as string),
  )
}

/** Text Codex sends in the user role that is not a prompt: the environment, the instructions. */
const contextText = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/

/** A user prompt's text, or null for any other item. */
function promptOf(item: InputItem): string | null {
  if (item.type !== 'message' || item.role !== 'user' || !Array.isArray(item.content)) return null
  const texts = (item.content as { type?: unknown; text?: unknown }[])
    .filter((part) => part.type === 'input_text' && typeof part.text === 'string')
    .map((part) => part.text as string)
  if (texts.length === 0 || texts.every((text) => contextText.test(text))) return null
  return texts.join('\n')
}

/** Turns of the agent loop offer the shell tool; the TUI's title request offers only apply_patch. */
function isMainLoop(body: unknown): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools
  return (
    Array.isArray(tools) && tools.some((tool) => shellTools.has((tool as { name?: unknown }).name as string))
  )
}

type Item = Record<string, unknown> & { type: string; id: string }

function itemFor(step: CodexStep, id: (prefix: string) => string): Item {
  if ('patch' in step) {
    return {
      type: 'custom_tool_call',
      id: id('ctc'),
      call_id: id('call'),
      name: 'apply_patch',
      input: step.patch,
      status: 'completed',
    }
  }
  if ('shell' in step) {
    const args = JSON.stringify({ cmd: step.shell })
    return {
      type: 'function_call',
      id: id('fc'),
      call_id: id('call'),
      name: 'exec_command',
      arguments: args,
      status: 'completed',
    }
  }
  return {
    type: 'message',
    id: id('msg'),
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: step.text, annotations: [] }],
  }
}

function stream(response: ServerResponse, item: Item, id: (prefix: string) => string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const base = {
    id: id('resp'),
    object: 'response',
    created_at: 0,
    model: 'gpt-5.5',
    status: 'in_progress',
    output: [],
  }
  let sequence = 0
  const send = (data: Record<string, unknown> & { type: string }): void =>
    sendEvent(response, data.type, { ...data, sequence_number: sequence++ })
  send({ type: 'response.created', response: base })
  send({ type: 'response.in_progress', response: base })
  if (item.type === 'message') {
    const text = ((item.content as { text: string }[])[0] ?? { text: '' }).text
    send({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, status: 'in_progress', content: [] },
    })
    const part = { type: 'output_text', text: '', annotations: [] }
    send({ type: 'response.content_part.added', output_index: 0, item_id: item.id, content_index: 0, part })
    send({
      type: 'response.output_text.delta',
      output_index: 0,
      item_id: item.id,
      content_index: 0,
      delta: text,
    })
    send({ type: 'response.output_text.done', output_index: 0, item_id: item.id, content_index: 0, text })
    send({
      type: 'response.content_part.done',
      output_index: 0,
      item_id: item.id,
      content_index: 0,
      part: { ...part, text },
    })
  } else if (item.type === 'function_call') {
    send({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, arguments: '', status: 'in_progress' },
    })
    send({
      type: 'response.function_call_arguments.delta',
      output_index: 0,
      item_id: item.id,
      delta: item.arguments,
    })
    send({
      type: 'response.function_call_arguments.done',
      output_index: 0,
      item_id: item.id,
      arguments: item.arguments,
    })
  } else {
    send({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, input: '', status: 'in_progress' },
    })
    send({
      type: 'response.custom_tool_call_input.delta',
      output_index: 0,
      item_id: item.id,
      delta: item.input,
    })
    send({
      type: 'response.custom_tool_call_input.done',
      output_index: 0,
      item_id: item.id,
      input: item.input,
    })
  }
  send({ type: 'response.output_item.done', output_index: 0, item })
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  }
  send({ type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } })
  response.end()
}
