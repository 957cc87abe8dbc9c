import { quoteInput } from '../../shared/quote-input.ts'
import { ErrorCode, SangamError } from '../../shared/sangam-error.ts'
import { projectIdSchema, projectKeySchema } from '../protocol/project.ts'

/**
 * The one line a teammate pastes into `sangam join`: `URL#projectId#key`. The key rides in what
 * would be a URL's fragment, which browsers and HTTP clients never send, so pasting the line
 * anywhere a URL is expected still keeps the key off the wire.
 */
export interface ConnectionLine {
  /** The server's base URL: origin and path, no trailing slash, no query, no fragment. */
  readonly url: string
  readonly projectId: string
  readonly key: string
}

export function formatConnectionLine(line: ConnectionLine): string {
  return `${line.url}#${line.projectId}#${line.key}`
}

export function parseConnectionLine(text: string): ConnectionLine {
  const parts = text.trim().split('#')
  const [url, projectId, key] = parts
  if (parts.length !== 3 || url === undefined || projectId === undefined || key === undefined) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      'a connection line is URL#projectId#key, as `sangam connection` prints it on a machine already attached',
    )
  }
  if (!projectIdSchema.safeParse(projectId).success)
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${quoteInput(projectId)} in the connection line is not a project id`,
    )
  // Never echo a malformed key: it may be a real key with a typo.
  if (!projectKeySchema.safeParse(key).success)
    throw new SangamError(
      ErrorCode.InvalidInput,
      'the key in the connection line is malformed (43 base64url characters expected); copy the whole line again',
    )
  return { url: parseServerUrl(url), projectId, key }
}

/**
 * A server's base URL as sangam stores it. Plain http is accepted only for this machine: anywhere
 * else the key would cross the network in clear (put TLS in front of `sangam serve`).
 */
export function parseServerUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `${quoteInput(text)} is not a URL (e.g. https://sangam-sync.example.workers.dev)`,
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new SangamError(ErrorCode.InvalidInput, `a sync server URL is http(s)://…, not ${url.protocol}`)
  if (url.username !== '' || url.password !== '')
    throw new SangamError(
      ErrorCode.InvalidInput,
      'a sync server URL carries no credentials; the key travels in a header',
    )
  if (url.search !== '' || url.hash !== '')
    throw new SangamError(ErrorCode.InvalidInput, 'a sync server URL has no query string or fragment')
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new SangamError(
      ErrorCode.InvalidInput,
      `http://${url.host} would send the project key in clear; use https (a TLS proxy in front of sangam serve), or http only on this machine (127.0.0.1, localhost)`,
    )
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}
