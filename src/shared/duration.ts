const second = 1000
const minute = 60 * second
const day = 24 * 60 * minute

/** `30 s`, `23 min`, `2 h`, `2 h 5 min`, `3 d`: rounded to what a person would say. */
export function formatDuration(ms: number): string {
  if (ms < minute) return `${Math.ceil(ms / second)} s`
  const minutes = Math.round(ms / minute)
  if (minutes < 60) return `${minutes} min`
  if (ms < day) {
    const rest = minutes % 60
    return `${Math.floor(minutes / 60)} h${rest === 0 ? '' : ` ${rest} min`}`
  }
  return `${Math.round(ms / day)} d`
}
