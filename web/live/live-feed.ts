import { isRecord } from '../api/request.ts'

export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'closed'
export type FeedListener = (topics: readonly string[]) => void

/** The topic a `reset` names: every listener refetches. */
export const everything = '*'

/**
 * The page's one Server-Sent Events stream (`/api/events`). Each `change` names the topics that
 * changed; listeners refetch theirs. The browser reconnects by itself and sends `Last-Event-ID`,
 * so the server resumes after the last change we saw: nothing lost, nothing twice. A stream the
 * server closed for good (no token any more) stays `closed`: the page says to reload.
 */
export class LiveFeed {
  readonly #listeners = new Set<FeedListener>()
  readonly #statusListeners = new Set<(status: FeedStatus) => void>()
  #source: EventSource | null = null
  #status: FeedStatus = 'connecting'
  #cursor: number | null = null
  readonly #url: string

  constructor(url: string) {
    this.#url = url
  }

  start(): void {
    if (this.#source) return
    const source = new EventSource(this.#url, { withCredentials: true })
    this.#source = source
    source.addEventListener('open', () => this.#setStatus('live'))
    source.addEventListener('error', () =>
      this.#setStatus(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting'),
    )
    source.addEventListener('change', (event) => this.#onChange(event as MessageEvent<string>))
    source.addEventListener('hello', (event) => this.#onHello(event as MessageEvent<string>, false))
    // The server no longer holds the changes after our cursor (or restarted): refetch everything.
    source.addEventListener('reset', (event) => this.#onHello(event as MessageEvent<string>, true))
  }

  stop(): void {
    this.#source?.close()
    this.#source = null
    this.#setStatus('closed')
  }

  get status(): FeedStatus {
    return this.#status
  }

  /** The cursor of the last change received (shown in the footer; useful when reporting a bug). */
  get cursor(): number | null {
    return this.#cursor
  }

  subscribe(listener: FeedListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  onStatus(listener: (status: FeedStatus) => void): () => void {
    this.#statusListeners.add(listener)
    return () => this.#statusListeners.delete(listener)
  }

  #onChange(event: MessageEvent<string>): void {
    const change = parseChange(event.data)
    if (!change) return
    this.#cursor = change.cursor
    this.#setStatus('live')
    for (const listener of this.#listeners) listener(change.topics)
  }

  #onHello(event: MessageEvent<string>, reset: boolean): void {
    this.#cursor = parseCursor(event.data) ?? this.#cursor
    this.#setStatus('live')
    if (reset) for (const listener of this.#listeners) listener([everything])
  }

  #setStatus(status: FeedStatus): void {
    if (status === this.#status) return
    this.#status = status
    for (const listener of this.#statusListeners) listener(status)
  }
}

function parseCursor(data: string): number | null {
  try {
    const body: unknown = JSON.parse(data)
    return isRecord(body) && typeof body.cursor === 'number' ? body.cursor : null
  } catch {
    return null
  }
}

function parseChange(data: string): { topics: string[]; cursor: number | null } | null {
  let body: unknown
  try {
    body = JSON.parse(data)
  } catch {
    return null
  }
  if (!isRecord(body) || !Array.isArray(body.topics)) return null
  const topics = body.topics.filter((topic): topic is string => typeof topic === 'string')
  return { topics, cursor: typeof body.cursor === 'number' ? body.cursor : null }
}
