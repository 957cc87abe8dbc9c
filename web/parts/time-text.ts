/** Milliseconds since the epoch, from the API's numbers or ISO strings. */
export function toMillis(at: number | string): number {
  return typeof at === 'number' ? at : Date.parse(at)
}

/** "just now", "4 min ago", "in 2 h": how long from `now` to `at`, in the largest unit that fits. */
export function relativeTime(at: number | string, now: number): string {
  const ms = toMillis(at)
  if (!Number.isFinite(ms)) return 'unknown'
  const delta = ms - now
  const abs = Math.abs(delta)
  if (abs < 45_000) return delta > 0 ? 'in a moment' : 'just now'
  const [value, unit] =
    abs < 3_600_000
      ? [Math.round(abs / 60_000), 'min']
      : abs < 86_400_000
        ? [Math.round(abs / 3_600_000), 'h']
        : [Math.round(abs / 86_400_000), 'd']
  return delta > 0 ? `in ${value} ${unit}` : `${value} ${unit} ago`
}

/** The local date and time, for a title attribute. */
export function exactTime(at: number | string): string {
  const ms = toMillis(at)
  return Number.isFinite(ms) ? new Date(ms).toLocaleString() : String(at)
}
