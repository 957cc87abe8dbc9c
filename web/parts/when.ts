import { html, type View } from '../html.ts'
import { exactTime, relativeTime } from './time-text.ts'

/** A relative time with the exact one on hover, in a <time> element. */
export function When(props: { at: number | string; now: number }): View {
  const iso = new Date(typeof props.at === 'number' ? props.at : Date.parse(props.at))
  const datetime = Number.isNaN(iso.getTime()) ? undefined : iso.toISOString()
  return html`<time datetime=${datetime} title=${exactTime(props.at)}>${relativeTime(props.at, props.now)}</time>`
}
