import { formatDuration } from './duration.ts'

/** `14:05 UTC` today, else `2026-11-30 14:05 UTC`: times are shown in UTC so a team reads one clock. */
export function formatTime(at: number, now: number): string {
  const iso = new Date(at).toISOString()
  const sameDay = iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10)
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)} UTC`
}

/** `in 23 min`, `in 2 h 5 min`, `in 3 d`, or `now` for what is already due. */
export function formatIn(at: number, now: number): string {
  const left = at - now
  return left <= 0 ? 'now' : `in ${formatDuration(left)}`
}
