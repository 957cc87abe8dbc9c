import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import { html, type View } from '../html.ts'

export type ChartSeries = { label: string; values: number[] }

type Props = {
  title: string
  /** x values: epoch seconds, one per hour. */
  hours: number[]
  series: ChartSeries[]
  bars?: boolean
  height?: number
}

/** Colours that read on light and dark backgrounds alike. */
const palette = ['#2f80ed', '#eb5757', '#27ae60', '#f2994a', '#9b51e0', '#00a3a3', '#c9a227', '#e0569b']

/**
 * A uPlot chart sized to its container. uPlot draws on a canvas, so the same numbers are kept in
 * an accessible table beside it (hidden visually; screen readers and text search read it).
 */
export function UplotChart(props: Props): View {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (!element) return undefined
    const styles = getComputedStyle(document.documentElement)
    const ink = styles.getPropertyValue('--muted').trim() || '#666'
    const grid = styles.getPropertyValue('--line').trim() || '#ddd'
    const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } }
    const bars = props.bars ? uPlot.paths.bars?.({ size: [0.7, 40] }) : undefined
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height: props.height ?? 220,
      scales: {
        // Bars are centred on their hour: half an hour of room at both ends keeps the first and last whole.
        x: props.bars ? { time: true, range: (_self, min, max) => [min - 1800, max + 1800] } : { time: true },
        y: { range: (_self, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [axis, { ...axis, size: 44 }],
      legend: { show: props.series.length > 1 },
      series: [
        {},
        ...props.series.map((series, index) => {
          const colour = palette[index % palette.length] ?? '#2f80ed'
          return {
            label: series.label,
            stroke: colour,
            width: 2,
            ...(props.bars ? { fill: `${colour}aa` } : {}),
            ...(bars ? { paths: bars, points: { show: false } } : {}),
          }
        }),
      ],
    }
    const data: uPlot.AlignedData = [props.hours, ...props.series.map((series) => series.values)]
    const chart = new uPlot(options, data, element)
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 240), height: options.height }),
    )
    resize.observe(element)
    return () => {
      resize.disconnect()
      chart.destroy()
    }
  }, [props.hours, props.series, props.bars, props.height])

  return html`<figure class="chart">
    <figcaption>${props.title}</figcaption>
    <div ref=${box} class="chart-box" aria-hidden="true"></div>
    <table class="visually-hidden">
      <caption>${props.title}</caption>
      <thead><tr><th>hour</th>${props.series.map((series) => html`<th>${series.label}</th>`)}</tr></thead>
      <tbody>
        ${props.hours.map(
          (hour, index) => html`<tr>
            <td>${new Date(hour * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</td>
            ${props.series.map((series) => html`<td>${series.values[index] ?? 0}</td>`)}
          </tr>`,
        )}
      </tbody>
    </table>
  </figure>`
}
