import type { ServerResponse } from 'node:http'
import { sendJson } from './fake-model-server.ts'
import { type ScriptedModelServer, startScriptedModelServer } from './scripted-model-server.ts'
import { historyIn, locate, type TurnPosition } from './user-turns.ts'

/**
 * A fake Gemini API (`generativelanguage` v1beta) for the real Gemini CLI, which honours
 * `GOOGLE_GEMINI_BASE_URL` with an API key: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
 * answered as server-sent `data:` lines from a script, `:generateContent` (the CLI's side requests:
 * routing, next-speaker and loop checks) answered with plain JSON, `:countTokens` with a count.
 * Gemini CLI resends the whole conversation in `contents` every turn, so the server finds the
 * request's user turn (a user content with text of its own, not a function response) and answers
 * that turn's step whose index is the number of function calls since it.
 */
export type GeminiStep =
  | { readonly tool: string; readonly args: Readonly<Record<string, unknown>> }
  | { readonly text: string }

export type FakeGemini = ScriptedModelServer<GeminiStep>

/** The tools only the agent loop offers; a side request offers none of them. */
const mainLoopTools = new Set(['write_file', 'replace', 'run_shell_command', 'read_file'])

export function startFakeGemini(): Promise<FakeGemini> {
  return startScriptedModelServer<GeminiStep>(
    { text: 'Done.' },
    ({ method, path, body }, response, player) => {
      if (method === 'POST' && path.endsWith(':countTokens')) {
        sendJson(response, 200, { totalTokens: 100 })
        return { kind: 'other' }
      }
      const streaming = path.endsWith(':streamGenerateContent')
      if (method !== 'POST' || !(streaming || path.endsWith(':generateContent'))) {
        sendJson(response, 404, { error: { code: 404, message: `no route ${path}`, status: 'NOT_FOUND' } })
        return { kind: 'other' }
      }
      // A side request (routing, next speaker, loop check) is no turn of the conversation.
      const turn = isMainLoop(body) ? positionOf(body) : null
      const step = turn === null ? { text: sideAnswer(body) } : player.stepAt(turn)
      if (streaming) stream(response, step)
      else sendJson(response, 200, candidate(step))
      return turn === null ? { kind: 'side' } : { kind: 'main', turn }
    },
  )
}

interface Part {
  readonly text?: unknown
  readonly functionCall?: unknown
  readonly functionResponse?: unknown
  readonly thought?: unknown
}

interface Content {
  readonly role?: unknown
  readonly parts?: unknown
}

function partsOf(content: Content): Part[] {
  return Array.isArray(content.parts) ? (content.parts as Part[]) : []
}

function positionOf(body: unknown): TurnPosition {
  return locate(
    historyIn<Content>(body, 'contents'),
    null,
    (content) => promptOf(content) !== null,
    (content) => promptOf(content) ?? '',
    (content) => content.role === 'model' && partsOf(content).some((part) => part.functionCall !== undefined),
  )
}

/**
 * A user content's own text, or null for function responses. The CLI's opening context
 * (`<session_context>This is the Gemini CLI…`) is a part of the first prompt's content in 0.61.0,
 * not a prompt; hooks' `<hook_context>` parts stay, so a scenario can find what they carried.
 */
function promptOf(content: Content): string | null {
  if (content.role !== 'user') return null
  const parts = partsOf(content)
  if (parts.some((part) => part.functionResponse !== undefined)) return null
  const texts = parts.filter((part) => typeof part.text === 'string').map((part) => part.text as string)
  if (texts.length === 0) return null
  const own = texts.filter((text) => !text.trimStart().startsWith('<session_context>'))
  return own.length === 0 ? null : own.join('\n')
}

function isMainLoop(body: unknown): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools
  if (!Array.isArray(tools)) return false
  return tools.some((tool) => {
    const declarations = (tool as { functionDeclarations?: unknown }).functionDeclarations
    return (
      Array.isArray(declarations) &&
      declarations.some((declaration) =>
        mainLoopTools.has((declaration as { name?: unknown }).name as string),
      )
    )
  })
}

/**
 * The CLI's side requests ask for JSON (a routing choice, whether the model speaks next): a
 * schema-shaped answer keeps them quiet; anything else gets a short text.
 */
function sideAnswer(body: unknown): string {
  const config = (body as { generationConfig?: { responseMimeType?: unknown } } | null)?.generationConfig
  if (config?.responseMimeType !== 'application/json') return 'Scripted session'
  return JSON.stringify({
    reasoning: 'scripted',
    next_speaker: 'user',
    model_choice: 'flash',
    complexity_reasoning: 'scripted',
    complexity_score: 10,
    is_stuck: false,
    unproductive_state_confidence: 0,
    unproductive_state_analysis: 'scripted',
  })
}

function candidate(step: GeminiStep): unknown {
  const part = 'tool' in step ? { functionCall: { name: step.tool, args: step.args } } : { text: step.text }
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: 'gemini-fake',
  }
}

/**
 * `alt=sse`: one `data: <GenerateContentResponse>` line. (0.61.0 repeats part of a text whose last
 * chunk carries the finish reason, so a scripted text is never split.)
 */
function stream(response: ServerResponse, step: GeminiStep): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  response.write(`data: ${JSON.stringify(candidate(step))}\n\n`)
  response.end()
}
