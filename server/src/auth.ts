import { Refusal } from './refusal.ts'

/**
 * Project keys are 32 random bytes, so a plain SHA-256 is enough to store them: there is no
 * dictionary to attack and a slow KDF would only slow every request. Digests are compared in
 * constant time so response timing says nothing about how much of a key was right.
 */
export async function digestKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key))
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index)
  return difference === 0
}

/** The key from `Authorization: Bearer <key>`, or a refusal. Never from the query string. */
export function bearerKey(request: Request): string {
  const header = request.headers.get('authorization') ?? ''
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match?.[1]) throw unauthorized('send the project key as "Authorization: Bearer <key>"')
  return match[1]
}

/** One answer for a wrong key and for a project that was never created, so ids cannot be probed. */
export function unauthorized(message = 'unknown project or wrong key'): Refusal {
  return new Refusal('UNAUTHORIZED', message)
}

const secretParameters = ['key', 'token', 'access_token', 'auth', 'authorization', 'apikey', 'api_key']

/**
 * A key in a URL ends up in proxy and access logs. We never read one from there, and a request that
 * carries one is refused loudly so the misconfigured client is fixed rather than silently leaking.
 * Refused: a parameter with a key-like name, whatever its value, and any parameter, whatever its
 * name, whose value contains the key the request authenticates with (`key`: null before it is read).
 */
export function refuseKeyInQuery(url: URL, key: string | null): void {
  for (const [name, value] of url.searchParams) {
    const named = secretParameters.includes(name.toLowerCase())
    const carries = key !== null && key.length > 0 && (value.includes(key) || name.includes(key))
    if (named || carries)
      throw new Refusal(
        'KEY_IN_QUERY',
        carries
          ? 'a query parameter carries the project key: send the key only in the Authorization header'
          : `remove "${name}" from the URL: send the key in the Authorization header`,
      )
  }
  if (key !== null && key.length > 0 && (url.pathname.includes(key) || safeDecode(url.search).includes(key)))
    throw new Refusal(
      'KEY_IN_QUERY',
      'the URL carries the project key: send it only in the Authorization header',
    )
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
