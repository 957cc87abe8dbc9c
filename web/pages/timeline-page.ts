import { useEffect, useState } from 'preact/hooks'
import { loadEventThread, loadTargets, loadTimeline, type TimelineQuery } from '../api/endpoints.ts'
import type { EventThread, TimelineEvent } from '../api/shapes.ts'
import { html, type View } from '../html.ts'
import { useLive } from '../live/use-live.ts'
import { ErrorNote, Loading } from '../parts/error-note.ts'
import { baseName } from '../parts/place.ts'
import { useNow } from '../parts/use-now.ts'
import { When } from '../parts/when.ts'

const kinds = ['human', 'assistant', 'thinking', 'tool_call', 'tool_output', 'system', 'note']
const vendors = ['claude', 'codex', 'sangam']

type Filters = Required<{ [K in keyof Omit<TimelineQuery, 'before'>]: string }>
const noFilters: Filters = { actor: '', vendor: '', kind: '', worktree: '', q: '' }

/** Every captured event, newest first, filtered; a row opens the turn it belongs to. */
export function TimelinePage(): View {
  const now = useNow()
  const [draft, setDraft] = useState<Filters>(noFilters)
  const [filters, setFilters] = useState<Filters>(noFilters)
  const key = JSON.stringify(filters)
  const first = useLive(() => loadTimeline(filters), ['events'], key)
  const targets = useLive(loadTargets, ['presence'], 'targets')
  const [older, setOlder] = useState<{ events: TimelineEvent[]; next: string | number | null } | null>(null)
  const [olderError, setOlderError] = useState<Error | null>(null)
  useEffect(() => setOlder(null), [key])

  const set = (name: keyof Filters) => (event: Event) =>
    setDraft({ ...draft, [name]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value })
  const apply = (event: Event) => {
    event.preventDefault()
    setFilters({ ...draft, q: draft.q.trim() })
  }
  const clear = () => {
    setDraft(noFilters)
    setFilters(noFilters)
  }
  const next = older ? older.next : (first.data?.next ?? null)
  const loadOlder = async () => {
    if (next === null) return
    setOlderError(null)
    try {
      const page = await loadTimeline({ ...filters, before: String(next) })
      setOlder({ events: [...(older?.events ?? []), ...page.events], next: page.next })
    } catch (error) {
      setOlderError(error as Error)
    }
  }
  const events = dedupe([...(first.data?.events ?? []), ...(older?.events ?? [])])
  const handles = (targets.data?.agents ?? []).map((agent) => agent.handle)
  const worktrees = targets.data?.worktrees ?? []

  return html`<section aria-labelledby="page-title">
    <h1 id="page-title" tabindex="-1">Timeline</h1>
    <form class="filters panel" onSubmit=${apply} role="search" aria-label="Filter the timeline">
      <label class="grow">Search <input type="search" name="q" data-primary value=${draft.q} onInput=${set('q')} placeholder=${'words, or "a phrase" (ranked like sangam search)'} /></label>
      <label>Actor <input name="actor" list="timeline-actors" value=${draft.actor} onInput=${set('actor')} size="14" /></label>
      <datalist id="timeline-actors">${handles.map((handle) => html`<option value=${handle}></option>`)}</datalist>
      <label>Vendor <select name="vendor" value=${draft.vendor} onChange=${set('vendor')}>
        <option value="">any</option>${vendors.map((vendor) => html`<option value=${vendor}>${vendor}</option>`)}
      </select></label>
      <label>Kind <select name="kind" value=${draft.kind} onChange=${set('kind')}>
        <option value="">any</option>${kinds.map((kind) => html`<option value=${kind}>${kind}</option>`)}
      </select></label>
      <label>Worktree <select name="worktree" value=${draft.worktree} onChange=${set('worktree')}>
        <option value="">any</option>${worktrees.map((worktree) => html`<option value=${worktree.path}>${worktree.target}</option>`)}
      </select></label>
      <button type="submit">Apply</button>
      <button type="button" class="quiet" onClick=${clear}>Clear</button>
    </form>
    <${Loading} when=${first.loading && !first.data} />
    <${ErrorNote} error=${first.error} />
    ${
      first.data && events.length === 0
        ? html`<p class="empty">${filters.q || filters.actor || filters.kind || filters.vendor || filters.worktree ? 'No event matches these filters.' : 'Nothing captured yet: the daemon (sangam up) captures transcripts as agents work.'}</p>`
        : null
    }
    <ol class="timeline" data-testid="timeline">
      ${events.map((event) => html`<${EventRow} key=${event.id} event=${event} now=${now} />`)}
    </ol>
    <${ErrorNote} error=${olderError} />
    ${next !== null ? html`<button type="button" onClick=${loadOlder}>Older events</button>` : null}
  </section>`
}

function EventRow(props: { event: TimelineEvent; now: number }): View {
  const { event } = props
  const [open, setOpen] = useState(false)
  const [thread, setThread] = useState<EventThread | null>(null)
  const [error, setError] = useState<Error | null>(null)
  const toggle = async () => {
    const opening = !open
    setOpen(opening)
    if (!opening || thread) return
    try {
      setThread(await loadEventThread(event.id))
    } catch (failure) {
      setError(failure as Error)
    }
  }
  // A human turn is the human's words to the session; everything else is the session's own.
  const agent = event.handle ? `@${event.handle}` : null
  const who =
    event.kind === 'human' || event.kind === 'note'
      ? `${event.author ?? 'someone'}${agent && event.kind === 'human' ? ` → ${agent}` : ''}`
      : (agent ?? event.author ?? event.sessionId?.slice(0, 8) ?? '—')
  const place = event.worktree ?? event.cwd ?? null
  return html`<li class=${`event kind-${event.kind}`} data-event-id=${event.id}>
    <button type="button" class="event-head" data-row aria-expanded=${open ? 'true' : 'false'} onClick=${toggle}>
      <span class=${`kind-tag kind-tag-${event.kind}`}>${event.kind}${event.toolName ? ` · ${event.toolName}` : ''}</span>
      <span class="who">${who}</span>
      <span class="muted">${event.vendor ?? ''}${place ? ` · ${baseName(place)}` : ''}${event.branch ? ` · ${event.branch}` : ''}</span>
      <span class="muted when"><${When} at=${event.at} now=${props.now} /></span>
    </button>
    <div class="event-text">${event.snippet ? html`<${Snippet} text=${event.snippet} />` : event.text}</div>
    ${
      open
        ? html`<div class="turn" aria-live="polite">
            <${ErrorNote} error=${error} />
            ${thread ? html`<${Turn} thread=${thread} now=${props.now} />` : error ? null : html`<p class="muted">Loading the turn…</p>`}
          </div>`
        : null
    }
  </li>`
}

/** Search snippets mark matched words «like this»; show them as <mark>. */
function Snippet(props: { text: string }): View {
  const parts = props.text.split(/«([^»]*)»/)
  return html`${parts.map((part, index) => (index % 2 === 1 ? html`<mark>${part}</mark>` : part))}`
}

function Turn(props: { thread: EventThread; now: number }): View {
  const { thread } = props
  const items = thread.human ? [thread.human, ...thread.items] : thread.items
  return html`<ol class="turn-items">
    ${thread.omittedBefore > 0 ? html`<li class="muted">… ${thread.omittedBefore} earlier events</li>` : null}
    ${items.map(
      (item) => html`<li class=${`turn-item kind-${item.kind}${item.focus ? ' focus' : ''}`}>
        <span class=${`kind-tag kind-tag-${item.kind}`}>${item.kind}${item.toolName ? ` · ${item.toolName}` : ''}${item.subagent ? ' · subagent' : ''}</span>
        ${item.status ? html` <span class="muted">${item.status}</span>` : null}
        <pre>${item.text}</pre>
      </li>`,
    )}
    ${thread.omittedAfter > 0 ? html`<li class="muted">… ${thread.omittedAfter} later events</li>` : null}
  </ol>`
}

function dedupe(events: TimelineEvent[]): TimelineEvent[] {
  const seen = new Set<string>()
  return events.filter((event) => !seen.has(event.id) && seen.add(event.id) !== undefined)
}
