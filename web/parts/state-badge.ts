import { html, type View } from '../html.ts'

const labels: Record<string, string> = {
  online: 'online',
  idle: 'idle',
  blocked: 'blocked on a human',
  offline: 'offline',
}

/** An actor's state as a coloured dot and a word (the word, not only the colour, carries it). */
export function StateBadge(props: { state: string }): View {
  return html`<span class=${`state state-${props.state}`}><span class="dot" aria-hidden="true"></span>${labels[props.state] ?? props.state}</span>`
}

export function VendorTag(props: { vendor: string | null; kind?: string }): View {
  const name = props.vendor ?? (props.kind === 'human' ? 'human' : '—')
  return html`<span class=${`vendor vendor-${name}`}>${name}</span>`
}
