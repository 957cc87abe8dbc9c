import { isUiToken } from './ui-token.ts'

/** What the guard looks at in a request: the headers that matter, and the token where it came. */
export interface GuardedRequest {
  readonly method: string
  readonly host: string | undefined
  readonly origin: string | undefined
  readonly secFetchSite: string | undefined
  readonly contentType: string | undefined
  /** The token from the run's cookie. */
  readonly cookieToken: string | undefined
  /** The token from `?token=` (the printed URL). */
  readonly queryToken: string | undefined
}

export type GuardVerdict =
  /** Serve the request. */
  | { readonly kind: 'pass' }
  /** The URL's token is right: set the cookie and redirect to the same path without it. */
  | { readonly kind: 'adopt-token' }
  | {
      readonly kind: 'refuse'
      readonly status: 401 | 403
      readonly code: 'UNAUTHORIZED' | 'FORBIDDEN'
      readonly message: string
    }

/** Methods that change nothing; everything else is a write. */
const safeMethods = new Set(['GET', 'HEAD'])

/**
 * The dashboard's gate, in order: the `Host` (DNS rebinding: a page of another site that resolves
 * its name to 127.0.0.1 sends its own name), then the token (cookie, or the printed URL's once),
 * then, for a write, where it comes from (a cross-site form or fetch) and that it is JSON.
 */
export function guardRequest(
  request: GuardedRequest,
  server: { readonly port: number; readonly token: string },
): GuardVerdict {
  const origins = [`127.0.0.1:${server.port}`, `localhost:${server.port}`]
  if (request.host === undefined || !origins.includes(request.host.toLowerCase()))
    return refuse(
      403,
      'FORBIDDEN',
      `this dashboard answers only to http://${origins[0]} and http://${origins[1]}`,
    )
  const write = !safeMethods.has(request.method.toUpperCase())
  if (!isUiToken(request.cookieToken, server.token)) {
    // The token in the URL is adopted only by a navigation (a GET); a write must carry the cookie.
    if (!write && isUiToken(request.queryToken, server.token)) return { kind: 'adopt-token' }
    return refuse(401, 'UNAUTHORIZED', 'open the URL sangam ui printed (it carries this run’s token)')
  }
  if (!write) return { kind: 'pass' }
  if (
    request.origin !== undefined &&
    !origins.map((origin) => `http://${origin}`).includes(request.origin.toLowerCase())
  )
    return refuse(
      403,
      'FORBIDDEN',
      `a write must come from this dashboard's own page, not from ${request.origin}`,
    )
  if (request.secFetchSite !== undefined && request.secFetchSite !== 'same-origin')
    return refuse(
      403,
      'FORBIDDEN',
      `a write must come from this dashboard's own page (Sec-Fetch-Site: ${request.secFetchSite})`,
    )
  const type = request.contentType?.split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/json')
    return refuse(403, 'FORBIDDEN', 'a write must send a JSON body (Content-Type: application/json)')
  return { kind: 'pass' }
}

function refuse(status: 401 | 403, code: 'UNAUTHORIZED' | 'FORBIDDEN', message: string): GuardVerdict {
  return { kind: 'refuse', status, code, message }
}
