/**
 * Narrow guards for Codex rollout records. A record is whatever JSON.parse produced; nothing here
 * trusts a field's type, and nothing walks a field it does not need (`base_instructions`,
 * `world_state`, `replacement_history` are never touched).
 */
export type JsonObject = Record<string, unknown>

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A non-empty string, else null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

export function objectOr(value: unknown): JsonObject | null {
  return isObject(value) ? value : null
}

export function arrayOr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

/** ms epoch of an ISO-8601 `timestamp`, or null ("[trimmed for fixture]" and garbage included). */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : null
}

/**
 * The shape of a record nobody recognised, for `doctor`: its sorted top-level keys, then the sorted
 * keys of its payload and of the payload's `item` where those are objects,
 * e.g. `payload,timestamp,type;payload:message,type`.
 */
export function signatureOf(record: JsonObject): string {
  const parts = [Object.keys(record).sort().join(',')]
  const payload = objectOr(record.payload)
  if (payload !== null) {
    parts.push(`payload:${Object.keys(payload).sort().join(',')}`)
    const item = objectOr(payload.item)
    if (item !== null) parts.push(`item:${Object.keys(item).sort().join(',')}`)
  }
  return parts.join(';')
}

/**
 * True when `id` is a UUIDv7 (version nibble 7). Its first 48 bits are the creation time in ms, so
 * two such ids compare by creation time as plain lowercase hex strings.
 */
export function isUuidV7(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
}

/** The 48-bit time prefix of a UUIDv7 as 12 lowercase hex digits (comparable as strings). */
export function uuidTime(id: string): string {
  return (id.slice(0, 8) + id.slice(9, 13)).toLowerCase()
}
