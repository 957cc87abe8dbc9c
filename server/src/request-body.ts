import type { z } from 'zod'
import { Refusal } from './refusal.ts'

/**
 * workerd resets a connection whose request body was left unread, and a client whose upload is
 * cut off never reads the answer. So a refused request's body is read and dropped before the
 * refusal is sent, up to this many bytes; past that the upload is abandoned and the client sees
 * a reset, which is all such an upload deserves.
 */
export const drainCapBytes = 16 * 1024 * 1024

/**
 * Reads a JSON body of at most `maxBytes` and parses it with `schema`. The declared length is
 * checked first. A body without one (chunked) is counted as it streams; past the limit it is
 * read and dropped, never kept.
 */

export async function readJsonBody<T>(request: Request, maxBytes: number, schema: z.ZodType<T>): Promise<T> {
  return parseJsonText(await readBodyText(request, maxBytes), schema)
}

export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) throw tooLarge(maxBytes)
  if (request.body === null) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > drainCapBytes) {
      await reader.cancel()
      throw tooLarge(maxBytes)
    }
    if (size <= maxBytes) chunks.push(value)
  }
  if (size > maxBytes) throw tooLarge(maxBytes)
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

/** Reads and drops what is left of a body, so the answer to a refused request reaches the client. */
export async function discardBody(request: Request): Promise<void> {
  if (request.body === null || request.bodyUsed) return
  if (Number(request.headers.get('content-length') ?? 0) > drainCapBytes) return
  const reader = request.body.getReader()
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    size += value.byteLength
    if (size > drainCapBytes) return reader.cancel()
  }
}

/** Parses JSON text (a body or a WebSocket message) with `schema`; a refusal names the first problem. */
export function parseJsonText<T>(text: string, schema: z.ZodType<T>): T {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Refusal('INVALID_REQUEST', 'the body is not valid JSON')
  }
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body'
  throw new Refusal('INVALID_REQUEST', `${where}: ${issue?.message ?? 'does not match the protocol'}`)
}

export function tooLarge(maxBytes: number): Refusal {
  return new Refusal('BODY_TOO_LARGE', `the body is larger than this server's limit of ${maxBytes} bytes`, {
    limit: maxBytes,
  })
}
