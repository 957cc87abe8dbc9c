import { createServer } from 'node:http'
import { WebSocketServer } from 'ws'

/** A turn a fake app-server was asked to start. */
export interface WokenTurn {
  /** ms epoch when `turn/start` arrived. */
  readonly at: number
  readonly text: string
}

export interface FakeAppServer extends AsyncDisposable {
  readonly endpoint: string
  /** The turns started, by thread id (the first per thread). */
  readonly woken: Map<string, WokenTurn>
  close(): Promise<void>
}

/**
 * A stand-in for the Codex app-server `sangam codex` starts: a WebSocket server on a Unix socket
 * answering the JSON-RPC codex-wake.ts sends (`initialize`, then `turn/start`, accepted
 * `inProgress`), or refusing `turn/start` with `refuse` as its error message. The real one is
 * driven in test/agents/scenarios/delivery-codex.scenario.ts.
 */
export async function fakeAppServer(
  socketPath: string,
  options: { refuse?: string } = {},
): Promise<FakeAppServer> {
  const woken = new Map<string, WokenTurn>()
  const server = createServer()
  const sockets = new WebSocketServer({ server })
  sockets.on('connection', (socket) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        id?: number
        method?: string
        params?: { threadId?: string; input?: { text?: string }[] }
      }
      if (message.method === 'initialize')
        socket.send(JSON.stringify({ id: message.id, result: { userAgent: 'fake-app-server/0' } }))
      if (message.method !== 'turn/start') return
      if (options.refuse !== undefined) {
        socket.send(JSON.stringify({ id: message.id, error: { code: -32600, message: options.refuse } }))
        return
      }
      const threadId = message.params?.threadId ?? ''
      if (!woken.has(threadId))
        woken.set(threadId, { at: Date.now(), text: message.params?.input?.[0]?.text ?? '' })
      socket.send(
        JSON.stringify({
          id: message.id,
          result: { turn: { id: `turn-${threadId}`, status: 'inProgress' } },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(socketPath, resolve))
  const close = async (): Promise<void> => {
    for (const client of sockets.clients) client.terminate()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return { endpoint: `unix://${socketPath}`, woken, close, [Symbol.asyncDispose]: close }
}
