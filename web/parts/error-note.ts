import { ApiError } from '../api/request.ts'
import { html, type View } from '../html.ts'

/** A failed load or a refused write, with the server's code so it can be looked up in docs/cli.md. */
export function ErrorNote(props: { error: Error | null }): View | null {
  if (!props.error) return null
  const code = props.error instanceof ApiError ? props.error.code : 'ERROR'
  return html`<p class="error" role="alert"><strong>${code}</strong> ${props.error.message}</p>`
}

/** "Loading…" only on the first load; later reloads keep showing the last answer. */
export function Loading(props: { when: boolean }): View | null {
  return props.when ? html`<p class="muted" aria-live="polite">Loading…</p>` : null
}
