import { request as httpRequest } from 'node:http'

/** One request as the sync client sends it: a method, headers, and a JSON body or none. */
export interface HttpExchange {
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  readonly signal: AbortSignal
}

/** The answer: its status and its whole body as text. */
export interface HttpReply {
  readonly status: number
  readonly text: string
}

/**
 * One HTTP exchange through `node:http` (or `node:https`), not `fetch`: the first `fetch` of a
 * process loads and compiles undici, about 0.1–0.2 s of CPU, which a `sangam claim` paid for one
 * request (D434). Connections are pooled by Node's global agents (keep-alive), whose idle sockets
 * keep no process alive. A failure rejects with Node's error (its `code`: ECONNREFUSED,
 * ECONNRESET for a connection closed unanswered, ABORT_ERR when `signal` fired).
 */
export async function httpExchange(exchange: HttpExchange): Promise<HttpReply> {
  // TLS is loaded only for a server that speaks it (a loopback `sangam serve` does not).
  const send = exchange.url.startsWith('https:') ? (await import('node:https')).request : httpRequest
  return await new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...exchange.headers }
    if (exchange.body !== undefined) headers['content-length'] = Buffer.byteLength(exchange.body)
    const outgoing = send(
      exchange.url,
      { method: exchange.method, headers, signal: exchange.signal },
      (reply) => {
        const chunks: Buffer[] = []
        reply.on('data', (chunk: Buffer) => chunks.push(chunk))
        reply.on('error', reject)
        reply.on('end', () =>
          resolve({ status: reply.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(exchange.body)
  })
}
