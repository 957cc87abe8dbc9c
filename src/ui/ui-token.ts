import { timingSafeEqual } from 'node:crypto'
import type { Random } from '../shared/random.ts'

/** The run's token: 32 random bytes, base64url (43 characters), made once when the server starts. */
export function newUiToken(random: Random): string {
  return Buffer.from(random.bytes(32)).toString('base64url')
}

/** Whether `given` is the token, in time that does not depend on where they differ. */
export function isUiToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given, 'utf8')
  const b = Buffer.from(token, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The cookie that keeps the token. Cookies do not tell ports apart (RFC 6265 §8.5), so two
 * dashboards on one machine (two projects) would overwrite each other's under one name.
 */
export function uiCookieName(port: number): string {
  return `sangam-ui-${port}`
}
