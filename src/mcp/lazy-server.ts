import { readFileSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import { earlyAnswer, type McpListing, parseListing, type ReplayedLine } from './mcp-listing.ts'
import type { McpServerOptions } from './server.ts'

/**
 * A line longer than this is not one the listing answers (`initialize` and `tools/list` are a few
 * hundred bytes): the SDK is loaded and applies its own limit to it.
 */
const longestEarlyLine = 1024 * 1024

/**
 * The MCP server as the hosts and `sangam mcp` run it: `initialize` and `tools/list` are answered
 * from the listing recorded at build time (mcp-listing.ts), and the server itself (the SDK, zod,
 * every tool's services: server.ts) is loaded at the first line the listing cannot answer, usually
 * the first tool call (D395). From then on the SDK's own stdio transport reads everything, first
 * the lines answered early (so that it knows its client), then the rest of stdin as it comes.
 * Without a listing (a build that recorded none, tests run from source) the server starts at once.
 */
export async function serveMcp(
  options: McpServerOptions & { readonly listing: McpListing | null },
): Promise<void> {
  const { listing, stdin, stdout } = options
  if (listing === null) return await (await import('./server.ts')).runMcpServer(options)
  const log = options.log.child({ component: 'mcp' })
  const replay: ReplayedLine[] = []
  let pending: Buffer = Buffer.alloc(0)
  /** Where stdin goes once the server is loading: the stream its stdio transport reads. */
  let input: PassThrough | null = null
  let settle: { resolve: () => void; reject: (error: unknown) => void } = { resolve() {}, reject() {} }
  const served = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject }
  })

  const stopEarly = (): void => settle.resolve()
  const onEnd = (): void => {
    if (input === null) stopEarly()
    else if (!input.writableEnded) input.end()
  }
  const onError = (error: Error): void => {
    if (input === null) log.warn('stdio transport error', { error: error.message })
    else input.destroy(error)
  }
  const handOver = (): void => {
    const server = new PassThrough()
    input = server
    options.stopSignal.removeEventListener('abort', stopEarly)
    for (const each of replay) server.write(`${each.line}\n`)
    if (pending.length > 0) server.write(pending)
    log.debug('loading the server', { replayed: replay.length })
    import('./server.ts')
      .then(({ runMcpServer }) =>
        runMcpServer({
          ...options,
          stdin: server,
          dropAnswersTo: replay.flatMap((each) => each.answeredId ?? []),
        }),
      )
      .then(settle.resolve, settle.reject)
  }
  const onData = (chunk: Buffer): void => {
    if (input !== null) {
      input.write(chunk)
      return
    }
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    for (let index = pending.indexOf(0x0a); index !== -1; index = pending.indexOf(0x0a)) {
      // Split as the SDK's stdio transport does (shared/stdio.js): at "\n", without a trailing "\r".
      const line = pending.toString('utf8', 0, index).replace(/\r$/, '')
      const answer = earlyAnswer(line, listing)
      if (answer.kind === 'needs-server') {
        handOver()
        return
      }
      pending = pending.subarray(index + 1)
      if (answer.kind === 'answered') stdout.write(`${answer.response}\n`)
      if (answer.replay !== null) replay.push(answer.replay)
    }
    if (pending.length > longestEarlyLine) handOver()
  }

  stdin.on('data', onData)
  stdin.on('end', onEnd)
  stdin.on('close', onEnd)
  stdin.on('error', onError)
  options.stopSignal.addEventListener('abort', stopEarly, { once: true })
  if (options.stopSignal.aborted) stopEarly()
  log.debug('answering from the listing until a tool is called')
  try {
    await served
  } finally {
    // As the SDK's transport leaves stdin when it closes: nothing of ours keeps the process alive.
    stdin.off('data', onData)
    stdin.off('end', onEnd)
    stdin.off('close', onEnd)
    stdin.off('error', onError)
    options.stopSignal.removeEventListener('abort', stopEarly)
    stdin.pause()
  }
}

/**
 * The listing recorded beside the build (dist/mcp/mcp-listing.json, found from dist/mcp/ and
 * dist/cli/ alike), or null when there is none for this version: then the server starts at once.
 */
export function readListing(version: string): McpListing | null {
  let text: string
  try {
    text = readFileSync(new URL('../mcp/mcp-listing.json', import.meta.url), 'utf8')
  } catch {
    return null
  }
  try {
    return parseListing(JSON.parse(text), version)
  } catch {
    return null
  }
}
