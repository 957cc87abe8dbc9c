import type { ServerResponse } from 'node:http'
import { type FakeModelServer, sendEvent, startFakeModelServer } from './fake-model-server.ts'

/**
 * A fake OpenAI Responses API for the real Codex CLI: `POST /v1/responses` answered as a stream of
 * server-sent events from a script. The reply to a turn is the step whose index is the number of
 * tool calls already in the request's `input` (Codex resends the whole history every turn).
 */
export type CodexStep = { readonly patch: string } | { readonly shell: string } | { readonly text: string }

export interface FakeOpenAi extends FakeModelServer {
  script(steps: readonly CodexStep[]): void
}

const callTypes = new Set(['function_call', 'custom_tool_call', 'local_shell_call'])
const shellTools = new Set(['exec_command', 'shell', 'shell_command'])

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let steps: readonly CodexStep[] = [{ text: 'Done.' }]
  let counter = 0
  const id = (prefix: string): string => `${prefix}_fake${(counter++).toString(36).padStart(6, '0')}`
  const server = await startFakeModelServer(({ method, path, body }, response) => {
    if (method === 'GET' && path.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ object: 'list', data: [] }))
      return 'other'
    }
    if (method !== 'POST' || !path.endsWith('/responses')) {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: `no route ${path}`, type: 'not_found' } }))
      return 'other'
    }
    const main = isMainLoop(body)
    const done = inputOf(body).filter((item) => callTypes.has(item.type as string)).length
    const step = main
      ? (steps[Math.min(done, steps.length - 1)] ?? { text: 'Done.' })
      : { text: 'Scripted session' }
    stream(response, itemFor(step, id), id)
    return main ? 'main' : 'side'
  })
  return {
    ...server,
    script(next) {
      steps = next
    },
  }
}

function inputOf(body: unknown): { type?: unknown }[] {
  const input = (body as { input?: unknown } | null)?.input
  return Array.isArray(input) ? (input as { type?: unknown }[]) : []
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
