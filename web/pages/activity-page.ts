import { useMemo } from 'preact/hooks'
import { loadCharts } from '../api/endpoints.ts'
import type { Charts } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
import { UplotChart } from '../parts/uplot-chart.ts'

const hourMs = 3_600_000

/** The last day as two pictures: what each agent did per hour, and what was captured per hour. */
export function ActivityPage(): View {
  const charts = useLive(loadCharts, ['events'], 'charts')
  const shaped = useMemo(() => (charts.data ? shape(charts.data) : null), [charts.data])
  return html`<section aria-labelledby="page-title">
    <h1 id="page-title" tabindex="-1">Activity <span class="muted">· last 24 hours</span></h1>
    <${Loading} when=${charts.loading && !charts.data} />
    <${ErrorNote} error=${charts.error} />
    ${
      shaped
        ? html`<div class="charts" data-testid="charts">
            <${UplotChart} title="Events captured per hour" hours=${shaped.hours} series=${shaped.captured} bars=${true} />
            ${
              shaped.perActor.length === 0
                ? html`<p class="empty">No agent activity in the last day.</p>`
                : html`<${UplotChart} title="Activity per agent (events per hour)" hours=${shaped.hours} series=${shaped.perActor} />`
            }
            <p class="muted" data-testid="chart-totals">Totals: ${shaped.total} events captured in the last day${shaped.busiest ? html`; busiest: <strong>${shaped.busiest}</strong>` : null}.</p>
          </div>`
        : null
    }
  </section>`
}

function shape(charts: Charts) {
  const hours =
    charts.eventsPerHour.length > 0
      ? charts.eventsPerHour.map((bucket) => Math.floor(bucket.hour / 1000))
      : lastDay(Date.now())
  const captured = [{ label: 'events', values: charts.eventsPerHour.map((bucket) => bucket.count) }]
  const perActor = charts.activity
    .map((row) => ({ label: row.actor, values: row.perHour.slice(-hours.length), total: sum(row.perHour) }))
    .sort((a, b) => b.total - a.total)
  return {
    hours,
    captured,
    perActor: perActor.map(({ label, values }) => ({ label, values })),
    total: sum(charts.eventsPerHour.map((bucket) => bucket.count)),
    busiest: perActor[0]?.label ?? null,
  }
}

function lastDay(now: number): number[] {
  const top = Math.floor(now / hourMs) * hourMs
  return Array.from({ length: 24 }, (_, index) => Math.floor((top - (23 - index) * hourMs) / 1000))
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0)
}
