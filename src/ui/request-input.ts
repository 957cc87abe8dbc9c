import type { Context } from 'hono'
import type { z } from 'zod'
import { ErrorCode } from '../shared/sangam-error.ts'
import { errorBody } from './api-error.ts'

/** An input parsed at the edge, or the 400 answer that says what is wrong with it. */
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly response: Response }

/** The request's query parameters, by `schema` (each a string, as they come). */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): Parsed<z.output<S>> {
  return parsed(c, schema, c.req.query(), 'query')
}

/** The request's JSON body, by `schema`. */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<Parsed<z.output<S>>> {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    return { ok: false, response: c.json(errorBody(ErrorCode.InvalidInput, 'the body is not JSON'), 400) }
  }
  return parsed(c, schema, body, 'body')
}

function parsed<S extends z.ZodType>(
  c: Context,
  schema: S,
  value: unknown,
  where: string,
): Parsed<z.output<S>> {
  const result = schema.safeParse(value)
  if (result.success) return { ok: true, value: result.data }
  const issue = result.error.issues[0]
  const at = issue === undefined || issue.path.length === 0 ? where : `${where}.${issue.path.join('.')}`
  const message = `${at}: ${issue?.message ?? 'not of the expected shape'}`
  return { ok: false, response: c.json(errorBody(ErrorCode.InvalidInput, message), 400) }
}
