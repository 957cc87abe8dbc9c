/** A refusal or failure from the dashboard's server: its `{error: {code, message}}`, or the transport's. */
export class ApiError extends Error {
  readonly code: string
  readonly status: number
  constructor(code: string, message: string, status: number) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = status
  }
}

/** GET a JSON answer (the token travels in the HttpOnly cookie the server set). */
export async function getJson(path: string): Promise<unknown> {
  return answer(await send(path, { method: 'GET', headers: { accept: 'application/json' } }))
}

/** POST a JSON body; same-origin, so the browser sends our own Origin. */
export async function postJson(path: string, body: unknown): Promise<unknown> {
  return answer(
    await send(path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { ...init, credentials: 'same-origin' })
  } catch (error) {
    throw new ApiError('UNREACHABLE', `the dashboard's server did not answer (${String(error)})`, 0)
  }
}

async function answer(response: Response): Promise<unknown> {
  const text = await response.text()
  const body = parse(text)
  if (response.ok) {
    if (body === undefined)
      throw new ApiError('BAD_RESPONSE', `not JSON: ${text.slice(0, 80)}`, response.status)
    return body
  }
  const error = isRecord(body) && isRecord(body.error) ? body.error : null
  const code = error && typeof error.code === 'string' ? error.code : `HTTP_${response.status}`
  const message = error && typeof error.message === 'string' ? error.message : response.statusText
  throw new ApiError(code, message, response.status)
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
