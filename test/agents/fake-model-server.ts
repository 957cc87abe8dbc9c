import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'

/**
 * The HTTP plumbing shared by the fake Anthropic and OpenAI servers: listen on 127.0.0.1, read
 * and log every request body, and hand it to the protocol's responder. The log is what scenarios
 * assert on (for example, that the SessionStart brief reached the model's first request).
 */
export interface LoggedRequest {
  readonly method: string
  readonly path: string
  readonly body: unknown
  /** `main`: a turn of the agent loop; `side`: anything else the CLI asked (titles, probes). */
  readonly kind: 'main' | 'side' | 'other'
}

export type Responder = (
  request: { method: string; path: string; body: unknown },
  response: ServerResponse,
) => LoggedRequest['kind']

export interface FakeModelServer extends AsyncDisposable {
  readonly baseUrl: string
  readonly requests: readonly LoggedRequest[]
  close(): Promise<void>
}

export function startFakeModelServer(respond: Responder): Promise<FakeModelServer> {
  const requests: LoggedRequest[] = []
  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        const path = (request.url ?? '/').split('?')[0] ?? '/'
        const method = request.method ?? 'GET'
        const kind = respond({ method, path, body }, response)
        requests.push({ method, path, body, kind })
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
      resolve({ baseUrl: `http://127.0.0.1:${port}`, requests, close, [Symbol.asyncDispose]: close })
    })
  })
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
