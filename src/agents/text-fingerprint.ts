/**
 * A short, whitespace-blind fingerprint of a text. Readers remember fingerprints, never the text:
 * their state is stored, and a fingerprint holds none of the transcript's bytes. Codex writes one
 * message up to three times (event_msg, response_item, item_completed), and the copies may differ
 * in how parts are joined; tool call ids are matched with their outputs this way too.
 * Two 32-bit FNV-1a hashes with different seeds plus the length make a collision negligible while
 * keeping the reader's state small.
 */
export function fingerprint(value: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193
  let length = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue
    a = Math.imul(a ^ code, 0x01000193)
    b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 13)
    length++
  }
  return `${length.toString(36)}.${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`
}

const fingerprintShape = /^[0-9a-z]{1,8}\.[0-9a-z]{1,7}\.[0-9a-z]{1,7}$/

/** A value as a fingerprint: states from older sangam versions kept some values raw. */
export function asFingerprint(value: string): string {
  return fingerprintShape.test(value) ? value : fingerprint(value)
}
