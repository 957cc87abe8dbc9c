import type { Db } from '../../store/db.ts'
import type { Vendor } from '../protocol/event.ts'
import { EventTimeline } from '../store/event-timeline.ts'

const hourMs = 60 * 60 * 1000
export const chartHours = 24

export interface ActivitySeries {
  /** The session's handle in the room, else `<vendor>-<first 8 of its id>`. */
  readonly actor: string
  readonly vendor: Vendor
  /** Events per hour, oldest first, `chartHours` of them. */
  readonly perHour: readonly number[]
}

export interface ActivityChart {
  /** ms epoch the first hour starts at: the current hour is the last. */
  readonly since: number
  /** One series per session with events in the period, the busiest first. */
  readonly activity: readonly ActivitySeries[]
  /** Every event captured or received, per hour, oldest first. */
  readonly eventsPerHour: readonly { readonly hour: number; readonly count: number }[]
}

/**
 * The dashboard's charts: activity per agent session over the last day, and events per hour. Hours
 * are whole clock hours (UTC), the current one last, so a chart drawn a minute later moves only
 * when an hour turns.
 */
export function activityChart(
  db: Db,
  now: number,
  handleOf: (sessionId: string) => string | null,
): ActivityChart {
  const since = Math.floor(now / hourMs) * hourMs - (chartHours - 1) * hourMs
  const rows = new EventTimeline(db).perHour(since, since + chartHours * hourMs)
  const series = new Map<string, { vendor: Vendor; perHour: number[] }>()
  const total = new Array<number>(chartHours).fill(0)
  for (const row of rows) {
    if (row.hour < 0 || row.hour >= chartHours) continue
    total[row.hour] = (total[row.hour] ?? 0) + row.count
    // Notes are sangam's own, not an agent's work.
    if (row.vendor === 'sangam') continue
    const entry = series.get(row.sessionId) ?? {
      vendor: row.vendor,
      perHour: new Array<number>(chartHours).fill(0),
    }
    entry.perHour[row.hour] = (entry.perHour[row.hour] ?? 0) + row.count
    series.set(row.sessionId, entry)
  }
  const activity = [...series.entries()]
    .map(([sessionId, entry]) => ({
      actor: handleOf(sessionId) ?? `${entry.vendor}-${sessionId.slice(0, 8)}`,
      vendor: entry.vendor,
      perHour: entry.perHour,
      sum: entry.perHour.reduce((a, b) => a + b, 0),
    }))
    .sort((a, b) => b.sum - a.sum || a.actor.localeCompare(b.actor))
    .map(({ sum: _sum, ...rest }) => rest)
  return {
    since,
    activity,
    eventsPerHour: total.map((count, hour) => ({ hour: since + hour * hourMs, count })),
  }
}
