import { ApiError, getJson, isRecord, postJson } from './request.ts'
import type {
  Board,
  Charts,
  EventThread,
  Lanes,
  Leases,
  Message,
  Now,
  Targets,
  Thread,
  Timeline,
} from './shapes.ts'

// One function per route of the API. Each answer's outline (the fields a page iterates) is
// checked here, at the edge, so a page never meets `undefined.map`.

export async function loadNow(): Promise<Now> {
  return outline<Now>(await getJson('/api/now'), '/api/now', ['actors', 'blockedOnHuman', 'messages'])
}

export async function loadBoard(): Promise<Board> {
  const body = outline<Partial<Board>>(await getJson('/api/board'), '/api/board', [])
  if (!isRecord(body.columns)) throw malformed('/api/board', 'columns')
  return {
    columns: body.columns as Board['columns'],
    lanes: (Array.isArray(body.lanes) ? body.lanes : []) as Board['lanes'],
    lock: (isRecord(body.lock) ? body.lock : null) as Board['lock'],
    lanesError: (isRecord(body.lanesError) ? body.lanesError : null) as Board['lanesError'],
    mainOutside: (isRecord(body.mainOutside) ? body.mainOutside : null) as Board['mainOutside'],
    collisions: (isRecord(body.collisions) ? body.collisions : null) as Board['collisions'],
  }
}

export async function loadTargets(): Promise<Targets> {
  return outline<Targets>(await getJson('/api/targets'), '/api/targets', ['agents', 'worktrees'])
}

export async function loadThreads(all: boolean): Promise<Thread[]> {
  const path = all ? '/api/threads?all=1' : '/api/threads'
  return outline<{ threads: Thread[] }>(await getJson(path), path, ['threads']).threads
}

export async function loadMessages(query: {
  thread?: string | undefined
  limit?: number
}): Promise<Message[]> {
  const path = `/api/messages${search({ thread: query.thread, limit: query.limit })}`
  return outline<{ messages: Message[] }>(await getJson(path), path, ['messages']).messages
}

export async function postMessage(text: string, thread: string | null): Promise<Message> {
  const body = await postJson('/api/messages', thread ? { text, thread } : { text })
  if (!isRecord(body) || !isRecord(body.message)) throw malformed('/api/messages', 'message')
  return body.message as Message
}

export async function openThread(input: { title: string; audience: string; reason: string }): Promise<void> {
  await postJson('/api/threads', {
    title: input.title,
    audience: input.audience,
    ...(input.reason ? { reason: input.reason } : {}),
  })
}

export async function closeThread(id: string): Promise<void> {
  await postJson(`/api/threads/${encodeURIComponent(id)}/close`, {})
}

export type TimelineQuery = {
  actor?: string | undefined
  vendor?: string | undefined
  kind?: string | undefined
  worktree?: string | undefined
  q?: string | undefined
  before?: string | undefined
}

export async function loadTimeline(query: TimelineQuery): Promise<Timeline> {
  const path = `/api/timeline${search({ ...query, limit: 50 })}`
  return outline<Timeline>(await getJson(path), path, ['events'])
}

export async function loadEventThread(eventId: string): Promise<EventThread> {
  const path = `/api/timeline/${encodeURIComponent(eventId)}/thread`
  return outline<EventThread>(await getJson(path), path, ['items'])
}

export async function loadLeases(): Promise<Leases> {
  const body = outline<Leases>(await getJson('/api/leases'), '/api/leases', ['leases'])
  return { ...body, history: Array.isArray(body.history) ? body.history : [] }
}

export async function claimLease(input: { paths: string[]; reason: string; ttl: string }): Promise<void> {
  await postJson('/api/leases', {
    paths: input.paths,
    reason: input.reason,
    ...(input.ttl ? { ttl: input.ttl } : {}),
  })
}

export async function releaseLease(paths: string[]): Promise<void> {
  await postJson('/api/leases/release', { paths })
}

export async function loadLanes(): Promise<Lanes> {
  const body = outline<Partial<Lanes>>(await getJson('/api/lanes'), '/api/lanes', [])
  const ready = isRecord(body.ready) && Array.isArray(body.ready.branches) ? body.ready : null
  return {
    ready: ready as Lanes['ready'],
    readyError: (body.readyError ?? null) as NonNullable<Lanes['readyError']> | null,
    lanes: (Array.isArray(body.lanes) ? body.lanes : []) as Lanes['lanes'],
    lock: (isRecord(body.lock) ? body.lock : null) as Lanes['lock'],
    main: (isRecord(body.main) ? body.main : null) as Lanes['main'],
    guard: (isRecord(body.guard) ? body.guard : null) as Lanes['guard'],
    publishes: (Array.isArray(body.publishes) ? body.publishes : []) as Lanes['publishes'],
    lanesError: (isRecord(body.lanesError) ? body.lanesError : null) as Lanes['lanesError'],
  }
}

export async function loadCharts(): Promise<Charts> {
  return outline<Charts>(await getJson('/api/charts'), '/api/charts', ['activity', 'eventsPerHour'])
}

/** The answer as T once it is an object whose `arrays` fields are arrays. */
function outline<T>(body: unknown, path: string, arrays: string[]): T {
  if (!isRecord(body)) throw malformed(path, 'body')
  for (const name of arrays) if (!Array.isArray(body[name])) throw malformed(path, name)
  return body as T
}

function malformed(path: string, field: string): ApiError {
  return new ApiError('BAD_RESPONSE', `${path} answered without a usable ${field}`, 200)
}

function search(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') params.set(name, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}
