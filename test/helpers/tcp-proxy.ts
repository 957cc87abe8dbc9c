import { connect, createServer, type Server, type Socket } from 'node:net'

/**
 * A loopback TCP proxy in front of the sync server, for faults the network causes: `cut()` drops
 * every open connection (a WebSocket with them) as a flaky Wi-Fi does; `offline(true)` refuses new
 * ones; `stall(true)` accepts new ones and holds them, their requests unsent, until `stall(false)`
 * (a server that is up but does not answer in time). It also keeps the head of every request a
 * client sent, so a test can check what crossed the wire (the key only in a header, never in a URL).
 */
export interface TcpProxy extends AsyncDisposable {
  readonly url: string
  cut(): void
  /** Holds new connections (open connections go on); off again, the held ones still open go through. */
  stall(hold: boolean): void
  /** How many connections are held now. */
  stalled(): number
  /** Offline: open connections drop and new ones are refused (ECONNREFUSED); online again on the same port. */
  offline(refuse: boolean): Promise<void>
  /** The first bytes (up to 8 KiB) of each client connection, as text. */
  requests(): string[]
  close(): Promise<void>
}

export async function startProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target)
  const open = new Set<Socket>()
  const heads: { text: string }[] = []
  // A held connection's bytes wait here; one its client closed meanwhile is never sent on.
  const held = new Map<Socket, { readonly chunks: Buffer[]; readonly detach: () => void }>()
  let holding = false
  const bridge = (client: Socket, early: readonly Buffer[] = []): void => {
    const upstream = connect(Number(port), hostname)
    const head = { text: '' }
    heads.push(head)
    open.add(client)
    open.add(upstream)
    const keepHead = (chunk: Buffer): void => {
      if (head.text.length < 8192) head.text += chunk.toString('latin1').slice(0, 8192 - head.text.length)
    }
    for (const chunk of early) {
      keepHead(chunk)
      upstream.write(chunk)
    }
    client.on('data', keepHead)
    client.pipe(upstream)
    upstream.pipe(client)
    const drop = (): void => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on('error', drop)
    upstream.on('error', drop)
    client.on('close', drop)
    upstream.on('close', drop)
  }
  const server: Server = createServer((client) => {
    if (!holding) {
      bridge(client)
      return
    }
    const chunks: Buffer[] = []
    const keep = (chunk: Buffer): void => {
      chunks.push(chunk)
    }
    const forget = (): void => {
      held.delete(client)
      open.delete(client)
    }
    const detach = (): void => {
      client.off('data', keep)
      client.off('end', forget)
      client.off('error', forget)
      client.off('close', forget)
    }
    held.set(client, { chunks, detach })
    open.add(client)
    client.on('data', keep)
    client.on('end', forget)
    client.on('error', forget)
    client.on('close', forget)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('proxy has no port')
  const proxyPort = address.port
  const stopListening = (): Promise<void> =>
    new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))
  const close = async (): Promise<void> => {
    for (const socket of open) socket.destroy()
    await stopListening()
  }
  const cut = (): void => {
    for (const socket of open) socket.destroy()
    open.clear()
  }
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    cut,
    async offline(refuse) {
      if (refuse) {
        const closed = stopListening()
        cut()
        await closed
      } else await new Promise<void>((resolve) => server.listen(proxyPort, '127.0.0.1', resolve))
    },
    stall(hold) {
      holding = hold
      if (hold) return
      for (const [client, { chunks, detach }] of [...held]) {
        held.delete(client)
        detach()
        if (!client.destroyed && !client.readableEnded) bridge(client, chunks)
      }
    },
    stalled: () => held.size,
    requests: () => heads.map((head) => head.text),
    close,
    [Symbol.asyncDispose]: close,
  }
}
