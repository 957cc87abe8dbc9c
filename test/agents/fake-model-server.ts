import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { distinctTurns, type TurnPosition, type UserTurn } from './user-turns.ts'

/**
 * The HTTP plumbing shared by the fake Anthropic and OpenAI servers: listen on 127.0.0.1, read
 * and log every request body, and hand it to the protocol's responder. The log is what scenarios
 * assert on (for example, that the SessionStart brief reached the model's first request), and
 * each main-loop request is placed in its conversation (which user turn, what its prompt said), so
 * a scenario can assert that a message reached the model as a prompt exactly once.
 */
export interface LoggedRequest {
  readonly method: string
  readonly path: string
  readonly body: unknown
  /** `main`: a turn of the agent loop; `side`: anything else the CLI asked (titles, probes). */
  readonly kind: 'main' | 'side' | 'other'
  /** For a main-loop request: its session, user turn, that turn's prompt and the step answered. */
  readonly turn: TurnPosition | null
  /** ms epoch when its body had arrived (benchmarks time the CLIs' reactions by it). */
  readonly at: number
}

export interface Answered {
  readonly kind: LoggedRequest['kind']
  readonly turn?: TurnPosition
}

export type Responder = (
  request: {
    method: string
    path: string
    body: unknown
    headers: Readonly<Record<string, string | string[] | undefined>>
  },
  response: ServerResponse,
) => Answered

export interface FakeModelServer extends AsyncDisposable {
  readonly baseUrl: string
  readonly requests: readonly LoggedRequest[]
  /** Every user turn the model was asked to answer, once each, in order of arrival. */
  turns(): UserTurn[]
  /** The user turns whose prompt contains `needle` (a message delivered once is one entry). */
  promptsWith(needle: string): UserTurn[]
  close(): Promise<void>
}

export function startFakeModelServer(respond: Responder): Promise<FakeModelServer> {
  const requests: LoggedRequest[] = []
  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        const path = (request.url ?? '/').split('?')[0] ?? '/'
        const method = request.method ?? 'GET'
        const at = Date.now()
        const answered = respond({ method, path, body, headers: request.headers }, response)
        requests.push({ method, path, body, kind: answered.kind, turn: answered.turn ?? null, at })
      },
      (error: Error) => {
        response.writeHead(400, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ error: { message: error.message } }))
      },
    )
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      const close = (): Promise<void> =>
        new Promise((done) => {
          server.closeAllConnections()
          server.close(() => done())
        })
      const turns = (): UserTurn[] => distinctTurns(requests.map((request) => request.turn))
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        requests,
        turns,
        promptsWith: (needle) => turns().filter((turn) => turn.prompt.includes(needle)),
        close,
        [Symbol.asyncDispose]: close,
      })
    })
  })
}

/** A header's single value, or null. */
export function headerValue(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | null {
  const value = headers[name]
  return typeof value === 'string' && value !== '' ? value : null
}

/** Answers with a JSON body: the protocols' plain answers, and each one's own 404 shape. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

/** Writes one server-sent event. */
export function sendEvent(response: ServerResponse, event: string, data: unknown): void {
  response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('error', reject)
    request.on('end', () => {
      let raw = Buffer.concat(chunks)
      if (request.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw)
      if (raw.length === 0) return resolve(null)
      try {
        resolve(JSON.parse(raw.toString('utf8')))
      } catch {
        reject(
          new Error(
            `request body is not JSON (content-encoding ${request.headers['content-encoding'] ?? 'none'})`,
          ),
        )
      }
    })
  })
}
