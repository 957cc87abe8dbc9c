import type { ServerResponse } from 'node:http'
import { type FakeModelServer, sendEvent, startFakeModelServer } from './fake-model-server.ts'

/**
 * A fake Anthropic Messages API for the real Claude Code CLI: `POST /v1/messages` answered as a
 * stream of server-sent events from a script. The reply to a turn of the agent loop is the step
 * whose index is the number of assistant messages already in the request (Claude resends the whole
 * conversation every turn), so one prompt walks the script in order.
 */
export type ClaudeStep =
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>> }
  | { readonly text: string }

export interface FakeAnthropic extends FakeModelServer {
  /** Sets the replies for the sessions that follow. */
  script(steps: readonly ClaudeStep[]): void
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  let steps: readonly ClaudeStep[] = [{ text: 'Done.' }]
  let counter = 0
  const id = (prefix: string): string => `${prefix}_fake${(counter++).toString(36).padStart(6, '0')}`
  const server = await startFakeModelServer(({ method, path, body }, response) => {
    if (method === 'POST' && path.endsWith('/v1/messages/count_tokens')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ input_tokens: 100 }))
      return 'other'
    }
    if (method !== 'POST' || !path.endsWith('/v1/messages')) {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${path}` } }),
      )
      return 'other'
    }
    const main = isMainLoop(body)
    const assistantTurns = messagesOf(body).filter((message) => message.role === 'assistant').length
    const step = main
      ? (steps[Math.min(assistantTurns, steps.length - 1)] ?? { text: 'Done.' })
      : { text: 'Scripted session' }
    stream(response, step, id)
    return main ? 'main' : 'side'
  })
  return {
    ...server,
    script(next) {
      steps = next
    },
  }
}

function messagesOf(body: unknown): { role?: unknown }[] {
  const messages = (body as { messages?: unknown } | null)?.messages
  return Array.isArray(messages) ? (messages as { role?: unknown }[]) : []
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
