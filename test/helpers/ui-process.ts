import type { ChildProcess } from 'node:child_process'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { spawnCli } from './run-cli.ts'

/** An answer of the dashboard, read whole. */
export interface UiAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
  json<T = Record<string, unknown>>(): T
}

export interface UiRequest {
  readonly method?: string | undefined
  /** Sent as given; `host` and `cookie` default to the server's and the run's. */
  readonly headers?: Record<string, string | undefined> | undefined
  /** JSON-encoded, with `Content-Type: application/json` unless `headers` says otherwise. */
  readonly json?: unknown
  /** Leave the run's cookie out. */
  readonly anonymous?: boolean | undefined
}

/** One server-sent event. */
export interface SseEvent {
  readonly id: string | null
  readonly event: string
  readonly data: string
}

/** An open `/api/events` stream, its events collected as they arrive. */
export interface SseStream {
  readonly events: SseEvent[]
  readonly status: Promise<number>
  /** The first event (seen or to come) `matches` accepts. */
  waitFor(matches: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>
  close(): void
}

/** A running `sangam ui --no-open --json` (or `up --ui`), its URL read from its `ui` line. */
export interface UiProcess extends AsyncDisposable {
  readonly child: ChildProcess
  readonly url: string
  readonly port: number
  readonly token: string
  /** `name=value` of the run's cookie. */
  readonly cookie: string
  /** Every JSON line of stdout so far. */
  readonly lines: Record<string, unknown>[]
  stderr(): string
  request(path: string, options?: UiRequest): Promise<UiAnswer>
  stream(options?: { readonly lastEventId?: string | undefined }): SseStream
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

export async function startUi(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number },
): Promise<UiProcess> {
  const child = spawnCli(args, options)
  const lines: Record<string, unknown>[] = []
  let stderr = ''
  let pending = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const started = new Promise<{ url: string; port: number }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ui line within ${options.timeoutMs ?? 30_000} ms; stderr: ${stderr}`)),
      options.timeoutMs ?? 30_000,
    )
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8')
      for (let at = pending.indexOf('\n'); at !== -1; at = pending.indexOf('\n')) {
        const line = JSON.parse(pending.slice(0, at)) as Record<string, unknown>
        pending = pending.slice(at + 1)
        lines.push(line)
        if (line.type === 'ui') {
          clearTimeout(timer)
          resolve({ url: String(line.url), port: Number(line.port) })
        }
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`sangam exited (${code}) before its ui line; stderr: ${stderr}`))
    })
  })
  const { url, port } = await started
  const token = new URL(url).searchParams.get('token') ?? ''
  const cookie = `sangam-ui-${port}=${token}`
  const baseHeaders = (options?: UiRequest): Record<string, string> => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}` }
    if (!options?.anonymous) headers.cookie = cookie
    if (options?.json !== undefined) headers['content-type'] = 'application/json'
    for (const [name, value] of Object.entries(options?.headers ?? {})) {
      if (value === undefined) delete headers[name.toLowerCase()]
      else headers[name.toLowerCase()] = value
    }
    return headers
  }
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  return {
    child,
    url,
    port,
    token,
    cookie,
    lines,
    stderr: () => stderr,
    request: (path, options) =>
      new Promise<UiAnswer>((resolve, reject) => {
        const body = options?.json === undefined ? undefined : JSON.stringify(options.json)
        const req = httpRequest(
          { host: '127.0.0.1', port, path, method: options?.method ?? 'GET', headers: baseHeaders(options) },
          (res) => {
            let text = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => {
              text += chunk
            })
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: text,
                json: <T>() => JSON.parse(text) as T,
              }),
            )
          },
        )
        req.on('error', reject)
        req.end(body)
      }),
    stream: (streamOptions) =>
      openStream(port, { ...baseHeaders(), 'last-event-id': streamOptions?.lastEventId }),
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop()
    },
  }
}

function openStream(port: number, headers: Record<string, string | undefined>): SseStream {
  const events: SseEvent[] = []
  const waiters: { matches: (event: SseEvent) => boolean; resolve: (event: SseEvent) => void }[] = []
  let resolveStatus: (status: number) => void = () => {}
  const status = new Promise<number>((resolve) => {
    resolveStatus = resolve
  })
  const sent = Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
  const req = httpRequest({ host: '127.0.0.1', port, path: '/api/events', headers: sent }, (res) => {
    resolveStatus(res.statusCode ?? 0)
    let pending = ''
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      pending += chunk
      for (let at = pending.indexOf('\n\n'); at !== -1; at = pending.indexOf('\n\n')) {
        const block = pending.slice(0, at)
        pending = pending.slice(at + 2)
        const fields = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'))
        if (fields.length === 0) continue
        const field = (name: string): string | null => {
          const line = fields.find((each) => each.startsWith(`${name}:`))
          return line === undefined ? null : line.slice(name.length + 1).trimStart()
        }
        const event = { id: field('id'), event: field('event') ?? 'message', data: field('data') ?? '' }
        events.push(event)
        for (const waiter of waiters.filter((each) => each.matches(event))) {
          waiters.splice(waiters.indexOf(waiter), 1)
          waiter.resolve(event)
        }
      }
    })
  })
  req.on('error', () => {})
  req.end()
  return {
    events,
    status,
    waitFor(matches, timeoutMs = 10_000) {
      const seen = events.find(matches)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events)}`)),
          timeoutMs,
        )
        waiters.push({
          matches,
          resolve: (event) => {
            clearTimeout(timer)
            resolve(event)
          },
        })
      })
    },
    close: () => req.destroy(),
  }
}
